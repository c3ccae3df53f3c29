import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { RequestContext } from '../context';
import { unauthenticated } from '../errors';

/**
 * Wraps a REST handler: it receives the request context and returns the value to encode as
 * JSON (`null` is encoded as JSON null; `undefined` means the handler wrote the response).
 */
export function handle(
  fn: (ctx: RequestContext, req: Request, res: Response) => Promise<unknown>,
  status = 200,
): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const ctx = req.ctx;
      if (!ctx) throw unauthenticated();
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
