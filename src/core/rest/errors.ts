import type { ErrorRequestHandler, Response } from 'express';
import { AppError, RETRY_AFTER_SECONDS, validationError } from '../errors';
import { databaseError } from '../db/errors';
import type { Logger } from '../logger';
import { closeIfUnread } from '../http/unread-body';
import { bearerChallenge } from '../auth/challenge';

interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
  message?: string;
}

/** The AppError a body parser's (or Express's) HTTP error stands for. */
function httpError(e: HttpishError): AppError | null {
  switch (e.type) {
    case 'entity.parse.failed':
      return validationError('body', 'is not valid JSON');
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', e.message ?? 'Unsupported body encoding');
  }
  const status = e.status ?? e.statusCode;
  if (status && status >= 400 && status < 500 && e.expose) {
    return new AppError('BAD_REQUEST', e.message ?? 'Bad request');
  }
  return null;
}

export function sendAppError(res: Response, err: AppError): void {
  const body: Record<string, unknown> = { detail: err.message, code: err.wireCode };
  if (err.fields.length) body.fields = err.fields;
  if (err.code === 'SERVICE_UNAVAILABLE') res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  if (err.status === 401) res.setHeader('WWW-Authenticate', bearerChallenge(res.req.get('authorization')));
  res.status(err.status).json(body);
}

/** Maps any error to the REST error body `{"detail": ..., "code": ...}` (README "Errors"). */
export function restErrorHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    closeIfUnread(req, res);
    const known = err instanceof AppError ? err : (databaseError(err) ?? httpError(err ?? {}));
    if (known) {
      if (!(err instanceof AppError))
        log.warn({ err, path: req.path, code: known.wireCode }, 'request failed');
      sendAppError(res, known);
      return;
    }
    log.error({ err, path: req.path }, 'unhandled error');
    res
      .status(500)
      .json({ detail: 'Internal server error', code: 'INTERNAL_SERVER_ERROR', request_id: req.requestId });
  };
}
