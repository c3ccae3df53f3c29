import type { IncomingMessage, ServerResponse } from 'node:http';
import compression from 'compression';
import type { RequestHandler } from 'express';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * gzip's fastest level for answers made per request (nginx's default `gzip_comp_level`): for the
 * GraphQL list of 50 (24 KB) it costs less than half of the default level 6 and sends about 10%
 * more bytes (docs/performance.md, "Cheaper compression"). brotli keeps the middleware's quality 4.
 */
export const COMPRESS_LEVEL = 1;

const JSON_TYPE = /^application\/(?:[a-z0-9.+-]+\+)?json\b/i;

/**
 * gzip or brotli (by the client's Accept-Encoding) for JSON answers of {@link COMPRESS_MIN_BYTES}
 * or more: GraphQL results, REST pages, the OpenAPI document. Nothing else: not a download (it
 * carries Content-Disposition, or answers a Range request: the byte ranges are of the stored
 * file), not bytes already compressed (Content-Encoding set, such as the web app's precompressed
 * assets), not a stream of another type (multipart, event streams). Subscriptions run over
 * WebSocket and never pass here.
 */
export function compressJson(): RequestHandler {
  return compression({
    threshold: COMPRESS_MIN_BYTES,
    level: COMPRESS_LEVEL,
    filter: (req: IncomingMessage, res: ServerResponse) => {
      if (req.headers.range) return false;
      if (res.getHeader('content-disposition') !== undefined) return false;
      if (res.getHeader('content-range') !== undefined) return false;
      return JSON_TYPE.test(String(res.getHeader('content-type') ?? ''));
    },
  });
}
