import type { Request, Response } from 'express';

/**
 * Answers small authenticated bytes (a thumbnail, an image preview) so the browser keeps them:
 * an ETag and `private, no-cache`, so every use asks again (the caller's access is checked on
 * each request) and gets a body-less 304 while the bytes are unchanged. Never shared caches,
 * never sniffed, shown inline.
 */
export function sendCached(
  req: Request,
  res: Response,
  body: { type: string; bytes: Buffer; etag: string },
): void {
  res.setHeader('ETag', body.etag);
  res.setHeader('Cache-Control', 'private, no-cache');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Disposition', 'inline');
  const asked = req.get('if-none-match');
  if (asked && asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === body.etag)) {
    res.status(304).end();
    return;
  }
  res.status(200).setHeader('Content-Type', body.type);
  res.setHeader('Content-Length', String(body.bytes.length));
  if (req.method === 'HEAD') res.end();
  else res.end(body.bytes);
}
