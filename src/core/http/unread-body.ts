import type { Request, Response } from 'express';
import { AppError } from '../errors';

/**
 * A request whose declared body is larger than `limitBytes`: refused from its Content-Length
 * alone, before a byte of it is read (the body parsers would read it all off the wire first,
 * and only then answer 413).
 */
export function declaredTooLarge(req: Request, limitBytes: number): AppError | null {
  const length = Number(req.headers['content-length']);
  if (!Number.isFinite(length) || length <= limitBytes) return null;
  return new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${limitBytes} bytes`);
}

/**
 * Before an error answer to a request whose body was not read: `Connection: close`, so Node
 * closes the connection after the answer instead of reading the rest of the body (up to the
 * largest accepted size, for nothing) to keep the connection alive.
 */
export function closeIfUnread(req: Request, res: Response): void {
  if (!req.complete && !res.headersSent) res.setHeader('Connection', 'close');
}
