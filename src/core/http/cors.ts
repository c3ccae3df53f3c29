import type { RequestHandler } from 'express';

const CORS_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
const CORS_EXPOSED_HEADERS =
  'x-request-id, content-disposition, content-length, content-range, accept-ranges, location, retry-after';
const DEFAULT_ALLOWED_HEADERS =
  'authorization, content-type, x-request-id, apollo-require-preflight, x-apollo-operation-name, range';
const MAX_AGE_SECONDS = '600';
/** what a preflight may ask for: header names only */
const HEADER_LIST = /^[A-Za-z0-9-]+(\s*,\s*[A-Za-z0-9-]+)*$/;

/**
 * Cross-origin access for browser frontends served from other origins (CORS).
 *
 * - Only the exact origins in `CORS_ORIGINS` are allowed; with none configured, no page on
 *   another origin can read a response (the browser's same-origin rule stands).
 * - No credentials: pages on other origins authenticate with `Authorization: Bearer <key>`;
 *   `Access-Control-Allow-Credentials` is never sent, so no other origin can read an answer made
 *   with the session cookie (the service's own page uses it; docs/authentication.md).
 * - Preflights (`OPTIONS` with `Access-Control-Request-Method`) are answered here for every path
 *   (`/graphql`, `/api/v2/...`, downloads): 204 for an allowed origin, 403 without CORS headers
 *   for any other. Ordinary requests from an allowed origin carry `Access-Control-Allow-Origin`
 *   and expose the headers a client reads (`x-request-id`, downloads' range and name headers).
 */
export function cors(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return (req, res, next) => {
    const origin = req.get('origin');
    const preflight = req.method === 'OPTIONS' && req.get('access-control-request-method') !== undefined;
    // answers differ by origin: shared caches must keep them apart
    if (allowed.size) res.vary('Origin');
    if (!origin) {
      next();
      return;
    }
    if (!allowed.has(origin)) {
      if (preflight) {
        res
          .status(403)
          .json({ detail: `Origin ${origin} may not call this API (CORS_ORIGINS)`, code: 'FORBIDDEN' });
        return;
      }
      next();
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    if (!preflight) {
      res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS);
      next();
      return;
    }
    const requested = req.get('access-control-request-headers')?.trim();
    res.vary('Access-Control-Request-Headers');
    res.setHeader('Access-Control-Allow-Methods', CORS_METHODS);
    res.setHeader(
      'Access-Control-Allow-Headers',
      requested && HEADER_LIST.test(requested) ? requested : DEFAULT_ALLOWED_HEADERS,
    );
    res.setHeader('Access-Control-Max-Age', MAX_AGE_SECONDS);
    res.status(204).end();
  };
}
