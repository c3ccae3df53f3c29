import fs from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';

/**
 * Where the built web app is: `dist/web`, found from this file both when it runs compiled (in
 * `dist/src/core/http`) and from source (tests run `src/` directly; `npm run build` fills `dist/`).
 */
export function webAppDir(): string {
  const up = path.resolve(__dirname, '..', '..', '..');
  return path.basename(up) === 'dist' ? path.join(up, 'web') : path.join(up, 'dist', 'web');
}

/** Paths the service answers itself: never shadowed by the web app's fallback page. */
const RESERVED = /^\/(api|auth|graphql|health|metrics|assets)(\/|$)/;

// Everything the page loads comes from this origin; thumbnails are data: URLs, downloads are links.
const CSP = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/**
 * The web catalog browser (web/, built into dist/web): hashed assets under /assets (cached for a
 * year), and its page at `/` and at every other GET path a browser asks HTML for (client-side
 * routes: a bookmarked `/datasets/…?q=…` loads the page, which then reads the URL). Mounted after
 * the API routes. When the app is not built, nothing here answers and the JSON 404 stays.
 */
export function webAppRouter(dir = webAppDir()): Router {
  const router = Router();
  const index = path.join(dir, 'index.html');
  if (!fs.existsSync(index)) return router;
  const page = fs.readFileSync(index);
  const sendPage = (res: express.Response): void => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.setHeader('cache-control', 'no-cache');
    res.setHeader('content-security-policy', CSP);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'same-origin');
    res.send(page);
  };
  router.use(
    '/assets',
    express.static(path.join(dir, 'assets'), {
      immutable: true,
      maxAge: '365d',
      index: false,
      fallthrough: true,
    }),
  );
  router.get(/.*/, (req, res, next) => {
    if (req.path !== '/' && (RESERVED.test(req.path) || !req.accepts('html') || !wantsHtml(req))) {
      next();
      return;
    }
    sendPage(res);
  });
  return router;
}

/** A browser navigating asks for text/html first; API clients (fetch, curl) send `*\/*` or JSON. */
function wantsHtml(req: express.Request): boolean {
  return (req.headers.accept ?? '').includes('text/html');
}
