import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import type { RequestContext } from '../context';
import { AppError, unauthenticated } from '../errors';
import { bodyObject } from './params';
import type { ValidateFunction } from 'ajv';
import { check, compile, decodeQuery, dropEchoed } from './validate';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The names of the parameters of an Express path: `:id` and `*rest`. */
export type PathParams<S extends string> = S extends `${string}:${infer P}/${infer R}`
  ? P | PathParams<`/${R}`>
  : S extends `${string}:${infer P}`
    ? P
    : S extends `${string}*${infer P}`
      ? P
      : never;

/** A response other than the success body: its description and, when it has one, its body. */
export interface ResponseSpec {
  description: string;
  schema?: TSchema;
  /** the media type when it is not JSON (`application/octet-stream`, `application/zip` …) */
  type?: string;
}

/**
 * What a route takes and answers. The route helper validates `query` and `body` with these
 * schemas before the handler runs, and the OpenAPI document (`GET /api/v2/openapi.json`) prints
 * them: one definition for both.
 */
export interface RouteSpec<Path extends string = string, Q extends TProperties = TProperties> {
  method: Method;
  /** the Express path under /api/v2 (`/datasets/:id`) */
  path: Path;
  summary: string;
  description?: string;
  /** the module (an OpenAPI tag) */
  tag: string;
  /** descriptions of the path parameters (each is a string) */
  params?: Partial<Record<PathParams<Path>, string>>;
  query?: Q;
  /** the JSON request body; a route without one ignores the body */
  body?: TSchema;
  /** a multipart/form-data alternative to the JSON body (documentation; the handler streams it) */
  multipart?: TSchema;
  /** a raw byte body (documentation; the handler streams it) */
  bytes?: boolean;
  /** the success status (200 unless given) and body */
  status?: number;
  response?: TSchema;
  /** the success media type when it is not JSON */
  responseType?: string;
  /** other documented responses by status */
  responses?: Record<string, ResponseSpec>;
  /**
   * false: no API key (the credential is in the URL, or the route is open); 'optional': a key
   * or session when one is sent (checked as everywhere), else the caller is anonymous (public
   * records only: published publications, public datasets)
   */
  auth?: boolean | 'optional';
}

export interface RouteInput<Path extends string, Q extends TProperties> {
  params: Record<PathParams<Path>, string>;
  query: Static<TObject<Q>>;
  body: unknown;
}

/** A route of the REST shim: its spec (for the document) and the handlers Express runs. */
export interface Route {
  spec: RouteSpec;
  handlers: RequestHandler[];
}

/** The path parameters as strings (a `*rest` parameter joined with `/`). */
function paramsOf(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(req.params as Record<string, unknown>)) {
    out[name] = Array.isArray(v) ? v.join('/') : typeof v === 'string' ? v : '';
  }
  return out;
}

/** The input checker of a spec: decodes the query, checks query and body, drops echoed fields. */
function inputReader<Path extends string, Q extends TProperties>(
  spec: RouteSpec<Path, Q>,
): (req: Request) => RouteInput<Path, Q> {
  const query = Type.Object(spec.query ?? ({} as Q));
  const body = spec.body;
  // compiled on the route's first request: compiling every route's schemas at start costs each
  // process start and command-line run (which serve no route) half a second of CPU
  let checkQuery: ValidateFunction | undefined;
  let checkBody: ValidateFunction | undefined;
  const isObject = (body as { type?: unknown } | undefined)?.type === 'object';
  return (req) => {
    const q = decodeQuery(query.properties as Record<string, { type?: string }>, req.query);
    check((checkQuery ??= compile(query)), q, 'query');
    let value: unknown = req.body;
    if (body && !(spec.multipart && req.is('multipart/form-data'))) {
      checkBody ??= compile(body);
      if (isObject) {
        const object = bodyObject(value);
        check(checkBody, object, 'body');
        value = dropEchoed(body.properties as Record<string, Record<string, unknown>>, object);
      } else check(checkBody, value, 'body');
    }
    return {
      params: paramsOf(req),
      query: q as Static<TObject<Q>>,
      body: value,
    };
  };
}

/**
 * A multipart/form-data body sent to a route that does not read forms: the body parser lets
 * forms through unread (they stream to the routes that take them), so the route itself refuses
 * it (415) before doing anything.
 */
function unreadForm(req: Request): AppError | null {
  if (!req.is('multipart/form-data')) return null;
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) return null;
  return new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    `${req.method} ${req.path} does not take multipart/form-data: send the request body as application/json`,
  );
}

/** A response body already written as JSON (by PostgreSQL): sent as it is, as `res.json` sends. */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * An authenticated route: the handler gets the request context and the checked input, and
 * returns the value to encode as JSON with the spec's status (`null` is JSON null; a
 * {@link JsonText} is sent as it is; `undefined` means the handler wrote the response itself).
 */
export function defineRoute<const Path extends string, const Q extends TProperties = TProperties>(
  spec: RouteSpec<Path, Q>,
  fn: (ctx: RequestContext, input: RouteInput<Path, Q>, req: Request, res: Response) => Promise<unknown>,
): Route {
  const read = inputReader(spec);
  const handler: RequestHandler = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const ctx = req.ctx;
      if (!ctx) throw unauthenticated();
      const form = spec.multipart ? null : unreadForm(req);
      if (form) throw form;
      const result = await fn(ctx, read(req), req, res);
      if (result === undefined) return;
      if (result instanceof JsonText) {
        // what `res.json` does with the text it writes
        if (!res.get('Content-Type')) res.set('Content-Type', 'application/json');
        res.status(spec.status ?? 200).send(result.text);
      } else res.status(spec.status ?? 200).json(result);
    } catch (err) {
      next(err);
    }
  };
  return { spec: spec, handlers: [handler] };
}

/**
 * A route without an API key (`auth: false`): mounted by its own router, which gives the handler
 * what it needs. The handler writes the response.
 */
export function openRoute<const Path extends string, const Q extends TProperties = TProperties>(
  spec: RouteSpec<Path, Q>,
  fn: (input: RouteInput<Path, Q>, req: Request, res: Response) => Promise<void>,
): Route {
  const read = inputReader(spec);
  const handler: RequestHandler = (req, res, next) => {
    Promise.resolve()
      .then(() => fn(read(req), req, res))
      .catch(next);
  };
  return { spec: { ...spec, auth: false }, handlers: [handler] };
}

/** Mounts routes on a router, in order (literal segments before parameters). */
export function mount(router: Router, routes: readonly Route[], ...before: RequestHandler[]): void {
  for (const r of routes) router[r.spec.method](r.spec.path, ...before, ...r.handlers);
}
