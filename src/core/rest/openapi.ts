import { isDeepStrictEqual } from 'node:util';
import { KindGuard, type TSchema } from '@sinclair/typebox';
import { ERROR_BODY } from './schema';
import type { ResponseSpec, RouteSpec } from './route';

/** Where the REST shim lives; the document's paths are relative to it. */
export const API_BASE = '/api/v2';
/** The prefixes the REST routes answer at: the 3.1 client's `/api/v2` and the 3.2 client's `/api/v3`. */
export const API_MOUNTS = ['/api/v2', '/api/v3'];

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
  /** the package's licence (an SPDX identifier) */
  license: string;
  /** tag name -> description, in the order the document lists them */
  tags: Record<string, string>;
}

type Json = Record<string, unknown>;

/** `/datasets/:id` -> `/datasets/{id}`; `/signed/objects/*key` -> `/signed/objects/{key}`. */
export function openapiPath(path: string): string {
  return path.replace(/[:*](\w+)/g, '{$1}');
}

function operationId(spec: RouteSpec): string {
  const words = spec.path
    .split('/')
    .filter(Boolean)
    .map((s) => (/^[:*]/.test(s) ? `by_${s.slice(1)}` : s))
    .join('_');
  return `${spec.method}_${words}`.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c?: string) => (c ?? '').toUpperCase());
}

/**
 * Hoists every subschema with a `title` into components (`$ref`) and strips what JSON Schema
 * does not need to see (TypeBox's symbol keys are not enumerable JSON; the annotation keywords
 * of the route helper are kept as `x-` extensions).
 */
class Components {
  readonly schemas: Record<string, Json> = {};

  ref(schema: unknown): unknown {
    if (Array.isArray(schema)) return schema.map((s) => this.ref(s));
    if (typeof schema !== 'object' || schema === null) return schema;
    const plain = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, this.ref(v)]));
    const title = (schema as { title?: unknown }).title;
    if (typeof title !== 'string') return plain;
    const known = this.schemas[title] as Record<string, unknown> | undefined;
    if (known && !isDeepStrictEqual(known, plain))
      throw new Error(`two different schemas are titled ${title}`);
    this.schemas[title] = plain;
    return { $ref: `#/components/schemas/${title}` };
  }
}

function jsonContent(c: Components, schema: TSchema | undefined, type = 'application/json'): Json {
  return { content: { [type]: { schema: schema ? c.ref(schema) : {} } } };
}

function response(c: Components, r: ResponseSpec): Json {
  if (!r.schema && !r.type) return { description: r.description };
  return { description: r.description, ...jsonContent(c, r.schema, r.type) };
}

function parameters(spec: RouteSpec, c: Components): Json[] {
  const path = [...spec.path.matchAll(/[:*](\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: (spec.params as Record<string, string> | undefined)?.[name],
    schema: { type: 'string' },
  }));
  const query = Object.entries(spec.query ?? {}).map(([name, schema]) => {
    const { description, ...rest } = schema as { description?: string };
    return {
      name,
      in: 'query',
      // what the route's validator requires (422 when absent), the document requires too
      ...(KindGuard.IsOptional(schema) ? {} : { required: true }),
      ...(description ? { description } : {}),
      schema: c.ref(rest),
      ...((rest as { type?: string }).type === 'array' ? { style: 'form', explode: true } : {}),
    };
  });
  return [...path, ...query];
}

function requestBody(spec: RouteSpec, c: Components): Json | undefined {
  const content: Json = {};
  if (spec.body) content['application/json'] = { schema: c.ref(spec.body) };
  if (spec.multipart) content['multipart/form-data'] = { schema: c.ref(spec.multipart) };
  if (spec.bytes) content['application/octet-stream'] = { schema: { type: 'string', format: 'binary' } };
  return Object.keys(content).length ? { content } : undefined;
}

/** The challenge of every 401 (RFC 9110 §11.6.1): what the caller must send. */
const CHALLENGE = {
  'WWW-Authenticate': {
    description:
      'The scheme to authenticate with: `Bearer realm="catalog"`, with `error="invalid_token"` when the key sent is malformed, unknown, revoked or expired (RFC 6750)',
    schema: { type: 'string' },
  },
};

/** The error answers every operation shares (the body is always {@link ERROR_BODY}). */
const ERROR_RESPONSES = {
  Unauthenticated: 'No valid API key (UNAUTHENTICATED)',
  InvalidInput: 'Invalid input (BAD_USER_INPUT), naming the fields',
  Refused: 'Refused: NOT_FOUND (also for what you may not read), FORBIDDEN, CONFLICT, PAYLOAD_TOO_LARGE …',
  ServerError:
    'INTERNAL_SERVER_ERROR, or SERVICE_UNAVAILABLE with Retry-After while the database is unreachable',
};

function operation(spec: RouteSpec, c: Components): Json {
  const auth = spec.auth !== false;
  const status = String(spec.status ?? 200);
  const ok: ResponseSpec = { description: 'OK', schema: spec.response, type: spec.responseType };
  const hasInput = Boolean(spec.body ?? spec.multipart ?? Object.keys(spec.query ?? {}).length);
  const responses: Record<string, Json> = { [status]: response(c, ok) };
  for (const [code, r] of Object.entries(spec.responses ?? {})) responses[code] = response(c, r);
  const ref = (name: keyof typeof ERROR_RESPONSES) => ({ $ref: `#/components/responses/${name}` });
  if (auth) responses['401'] = ref('Unauthenticated');
  if (hasInput) responses['422'] = ref('InvalidInput');
  responses['4XX'] = ref('Refused');
  responses['5XX'] = ref('ServerError');
  const params = parameters(spec, c);
  const body = requestBody(spec, c);
  return {
    operationId: operationId(spec),
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [spec.tag],
    // optional: anonymous callers too (an empty requirement), or a key
    ...(spec.auth === 'optional' ? { security: [{}, { apiKey: [] }] } : auth ? {} : { security: [] }),
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of the REST shim, built from the route specs the handlers validate
 * with. Deterministic: the same specs give the same document (it is committed as openapi.json).
 */
export function openapiDocument(specs: readonly RouteSpec[], info: DocumentInfo): Json {
  const c = new Components();
  const paths: Record<string, Record<string, Json>> = {};
  for (const spec of specs) {
    const path = openapiPath(spec.path);
    const item = (paths[path] ??= {});
    if (spec.method in item) throw new Error(`${spec.method.toUpperCase()} ${path} is defined twice`);
    item[spec.method] = operation(spec, c);
  }
  const used = [...new Set(specs.map((s) => s.tag))];
  const undescribed = used.filter((t) => !(t in info.tags));
  if (undescribed.length) throw new Error(`tags without a description: ${undescribed.join(', ')}`);
  return {
    openapi: '3.1.1',
    info: {
      title: info.title,
      version: info.version,
      description: info.description,
      license: { name: info.license, identifier: info.license },
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [
      { url: '/api/v3', description: 'the wire of the 3.2 client (docs/legacy-client.md, "/api/v3")' },
      { url: API_BASE, description: 'the wire of the 3.1 client: the same routes, the 3.1 shapes' },
    ],
    security: [{ apiKey: [] }],
    tags: Object.entries(info.tags)
      .filter(([name]) => used.includes(name))
      .map(([name, description]) => ({ name, description })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key: `Authorization: Bearer <api key>` (see README "API keys")',
        },
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([name, description]) => [
          name,
          {
            ...response(c, { description, schema: ERROR_BODY }),
            ...(name === 'Unauthenticated' ? { headers: CHALLENGE } : {}),
          },
        ]),
      ),
      schemas: Object.fromEntries(Object.entries(c.schemas).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}
