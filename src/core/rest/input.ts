import express, { type Request, type RequestHandler, type Router } from 'express';
import { AppError, validationError } from '../errors';
import { jsonProblem } from '../json-guard';
import { declaredTooLarge } from '../http/unread-body';

/**
 * Refuses paths and query strings PostgreSQL could not take before any route sees them: a path
 * that is not valid percent-encoded UTF-8, and NUL characters in a path segment or in a query
 * parameter (name or value).
 */
export const pathAndQueryGuard: RequestHandler = (req, _res, next) => {
  for (const segment of req.path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      next(validationError('path', 'is not valid percent-encoded UTF-8'));
      return;
    }
    if (decoded.includes('\u0000')) {
      next(validationError('path', 'must not contain NUL characters (%00)'));
      return;
    }
  }
  const problem = jsonProblem(req.query, 'query', 4);
  next(problem ? new AppError('VALIDATION', `${problem.field}: ${problem.message}`, [problem]) : undefined);
};

const JSON_TYPES = ['application/json', 'application/*+json'];

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Request bodies of the REST routes: JSON (parsed, then checked for NUL characters and depth,
 * naming the field), or multipart/form-data left unread for the routes that stream it (`handle`
 * answers 415 on every other route, before it does anything). Any other
 * body is 415 rather than silently ignored. Mount after authentication, so nothing is read for
 * callers without a valid key.
 */
export function jsonBodies(limitBytes: number): RequestHandler[] {
  const json = express.json({ limit: limitBytes, type: JSON_TYPES });
  const parse: RequestHandler = (req, res, next) => {
    const tooLarge = req.is(JSON_TYPES) ? declaredTooLarge(req, limitBytes) : null;
    if (tooLarge) next(tooLarge);
    else json(req, res, next);
  };
  const check: RequestHandler = (req, _res, next) => {
    if (!hasBody(req)) {
      next();
      return;
    }
    if (req.is(JSON_TYPES)) {
      const problem = jsonProblem(req.body, '');
      next(
        problem ? new AppError('VALIDATION', `${problem.field}: ${problem.message}`, [problem]) : undefined,
      );
      return;
    }
    if (req.is('multipart/form-data')) {
      next();
      return;
    }
    next(
      new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Send the request body as application/json (got ${req.get('content-type') ?? 'no Content-Type'})`,
      ),
    );
  };
  return [parse, check];
}

interface RouterLayer {
  route?: { methods?: Record<string, boolean> };
  handle: { stack?: RouterLayer[] };
  match(path: string): { path: string } | false;
}

/** The methods the routes of `stack` (and of routers mounted in it) answer at `path`. */
function methodsAt(stack: RouterLayer[], path: string, into: Set<string>): void {
  for (const layer of stack) {
    const m = layer.match(path);
    if (!m) continue;
    if (layer.route?.methods) {
      for (const [method, on] of Object.entries(layer.route.methods)) if (on) into.add(method.toUpperCase());
    } else if (layer.handle.stack) {
      methodsAt(layer.handle.stack, path.slice(m.path.length) || '/', into);
    }
  }
}

/**
 * The last handler for paths the `routers` did not answer: 405 with `Allow` when the path
 * exists under other methods, otherwise 404.
 */
export function noRoute(...routers: Router[]): RequestHandler {
  return (req, res, next) => {
    const allowed = new Set<string>();
    for (const router of routers) methodsAt(router.stack as unknown as RouterLayer[], req.path, allowed);
    if (allowed.has('GET')) allowed.add('HEAD');
    if (allowed.size === 0 || allowed.has(req.method)) {
      next(new AppError('NOT_FOUND', `No route for ${req.method} ${req.path}`));
      return;
    }
    const allow = [...allowed].sort().join(', ');
    res.setHeader('Allow', allow);
    next(new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${req.path}: use ${allow}`));
  };
}
