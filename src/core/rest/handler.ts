import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { RequestContext } from '../context';
import { AppError, unauthenticated } from '../errors';

/**
 * A multipart/form-data body sent to a route that does not read forms: the body parser lets
 * forms through unread (they stream to the routes that take them), so the route itself refuses
 * it before doing anything.
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

/**
 * Wraps a REST handler: it receives the request context and returns the value to encode as
 * JSON (`null` is encoded as JSON null; `undefined` means the handler wrote the response).
 * A multipart/form-data body is 415 unless the route says it reads forms (`opts.form`).
 */
export function handle(
  fn: (ctx: RequestContext, req: Request, res: Response) => Promise<unknown>,
  status = 200,
  opts: { form?: boolean } = {},
): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const ctx = req.ctx;
      if (!ctx) throw unauthenticated();
      const form = opts.form ? null : unreadForm(req);
      if (form) throw form;
      const result = await fn(ctx, req, res);
      if (result === undefined) return;
      res.status(status).json(result);
    } catch (err) {
      next(err);
    }
  };
}

/** The single path parameter `name` (Express 5 types path parameters loosely). */
export function param(req: Request, name: string): string {
  const v: unknown = (req.params as Record<string, unknown>)[name];
  if (Array.isArray(v)) return v.join('/');
  return typeof v === 'string' ? v : '';
}
