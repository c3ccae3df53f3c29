import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import { attachmentDisposition } from './keys';
import type { ObjectStore } from './object-store';
import { parseRange } from './range';

export interface SendMeta {
  filename: string;
  contentType: string;
}

/**
 * Streams an object as an HTTP response, honouring a single-range `Range` header (206 with
 * `Content-Range`, 416 when unsatisfiable) and HEAD. Memory stays bounded whatever the size.
 */
export async function sendObject(
  req: Request,
  res: Response,
  store: ObjectStore,
  key: string,
  meta: SendMeta,
  log?: Logger,
): Promise<void> {
  const info = await store.head(key);
  if (!info) throw new AppError('NOT_FOUND', `The contents of ${meta.filename} are missing from storage`);
  const range = parseRange(req.get('range'), info.size);
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Content-Type', meta.contentType);
  res.setHeader('Content-Disposition', attachmentDisposition(meta.filename));
  res.setHeader('Cache-Control', 'private, no-transform');
  if (range === 'unsatisfiable') {
    res.status(416).setHeader('Content-Range', `bytes */${info.size}`);
    res.end();
    return;
  }
  const length = range ? range.end - range.start + 1 : info.size;
  res.status(range ? 206 : 200).setHeader('Content-Length', String(length));
  if (range) res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
  if (req.method === 'HEAD' || length === 0) {
    res.end();
    return;
  }
  const object = await store.get(key, range);
  if (!object) throw new AppError('NOT_FOUND', `The contents of ${meta.filename} are missing from storage`);
  try {
    await pipeline(object.body, res);
  } catch (err) {
    // the client went away mid-download: nothing to answer any more
    log?.debug({ err, key }, 'download interrupted');
  }
}
