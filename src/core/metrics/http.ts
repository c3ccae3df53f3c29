import { timingSafeEqual, createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { ApolloServerPlugin } from '@apollo/server';
import { bearerChallenge } from '../auth/challenge';
import {
  graphqlDuration,
  graphqlOperations,
  httpDuration,
  httpRequests,
  registry,
  secondsSince,
} from './registry';

/**
 * The route template of a request (`/api/v2/datasets/:id`), never its raw path, so the label set
 * stays bounded whatever clients send. `mounts` are the prefixes routers are mounted at: Express
 * forgets a router's prefix once an error leaves it, so it is taken from the path instead.
 * Requests no route matched are labelled by their mount (`/api/v2/*`, `/graphql`) or `unmatched`.
 */
export function routeLabel(req: Request, mounts: readonly string[]): string {
  const path = req.originalUrl.split('?')[0];
  const mount = mounts.find((m) => path === m || path.startsWith(`${m}/`));
  const route = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof route === 'string') return `${mount ?? ''}${route}`;
  if (path === '/graphql' || path.startsWith('/graphql/')) return '/graphql';
  return mount ? `${mount}/*` : 'unmatched';
}

/** Counts and times every HTTP request by method, route template and status. */
export function httpMetrics(mounts: readonly string[] = []): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const labels = { method: req.method, route: routeLabel(req, mounts), status: String(res.statusCode) };
      httpRequests.inc(labels);
      httpDuration.observe(labels, secondsSince(started));
    });
    next();
  };
}

function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * `GET /metrics` in the Prometheus text format. With a token configured (METRICS_TOKEN) it
 * answers only `Authorization: Bearer <token>`; API keys do not open it.
 */
export function metricsEndpoint(token: string | undefined): RequestHandler {
  return (req, res, next) => {
    if (token) {
      const given = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '')?.[1];
      if (!given || !sameSecret(given, token)) {
        res.setHeader('WWW-Authenticate', bearerChallenge(req.get('authorization'), 'metrics'));
        res.status(401).json({ detail: 'The metrics token is missing or wrong', code: 'UNAUTHENTICATED' });
        return;
      }
    }
    registry.metrics().then((text) => {
      res.setHeader('Content-Type', registry.contentType);
      res.setHeader('Cache-Control', 'no-store');
      res.send(text);
    }, next);
  };
}

const MAX_OPERATION_NAMES = 500;
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;
const seenNames = new Set<string>();

/** Client-chosen operation names, kept to a bounded set: past the cap new names count as `other`. */
function operationLabel(name: string | null | undefined): string {
  if (!name) return 'anonymous';
  if (!NAME.test(name)) return 'other';
  if (seenNames.has(name)) return name;
  if (seenNames.size >= MAX_OPERATION_NAMES) return 'other';
  seenNames.add(name);
  return name;
}

/** `ok`, or the first error's code in lower case (a bounded set: the error table's codes). */
function outcomeOf(errors: readonly { extensions?: Record<string, unknown> }[] | undefined): string {
  if (!errors?.length) return 'ok';
  const code = errors[0].extensions?.code;
  return typeof code === 'string' && /^[A-Z_]{1,40}$/.test(code) ? code.toLowerCase() : 'error';
}

/** Counts and times GraphQL operations by name, type and outcome. */
export const graphqlMetrics: ApolloServerPlugin = {
  contextCreationDidFail({ error }) {
    graphqlOperations.inc({
      operation: 'unknown',
      type: 'unknown',
      outcome: outcomeOf([error as { extensions?: Record<string, unknown> }]),
    });
    return Promise.resolve();
  },
  requestDidStart() {
    const started = process.hrtime.bigint();
    return Promise.resolve({
      willSendResponse(rc) {
        const labels = {
          operation: operationLabel(rc.operationName ?? rc.request.operationName),
          type: rc.operation?.operation ?? 'unknown',
          outcome: outcomeOf(rc.errors),
        };
        graphqlOperations.inc(labels);
        graphqlDuration.observe(labels, secondsSince(started));
        return Promise.resolve();
      },
    });
  },
};
