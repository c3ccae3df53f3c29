import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError } from '../errors';
import type { Logger } from '../logger';

interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
  message?: string;
}

/** Maps any error to the REST error body `{"detail": ..., "code": ...}` (DESIGN §8). */
export function restErrorHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof AppError) {
      const body: Record<string, unknown> = { detail: err.message, code: err.code };
      if (err.fields.length) body.fields = err.fields;
      res.status(err.status).json(body);
      return;
    }
    const e = (err ?? {}) as HttpishError;
    if (e.type === 'entity.parse.failed') {
      res.status(400).json({ detail: 'The request body is not valid JSON', code: 'VALIDATION' });
      return;
    }
    if (e.type === 'entity.too.large') {
      res.status(413).json({ detail: 'The request body is too large', code: 'PAYLOAD_TOO_LARGE' });
      return;
    }
    const status = e.status ?? e.statusCode;
    if (status && status >= 400 && status < 500 && e.expose) {
      res.status(status).json({ detail: e.message ?? 'Bad request', code: 'VALIDATION' });
      return;
    }
    log.error({ err, path: req.path }, 'unhandled error');
    res.status(500).json({ detail: 'Internal server error', code: 'INTERNAL', request_id: req.requestId });
  };
}

export const notFoundRoute: RequestHandler = (req, res) => {
  res.status(404).json({ detail: `No route for ${req.method} ${req.path}`, code: 'NOT_FOUND' });
};
