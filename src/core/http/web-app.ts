import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import express, { Router } from 'express';

/**
 * Where the built web app is: `dist/web`, found from this file both when it runs compiled (in
 * `dist/src/core/http`) and from source (tests run `src/` directly; `npm run build` fills `dist/`).
 */
export function webAppDir(): string {
  const up = path.resolve(__dirname, '..', '..', '..');
  return path.basename(up) === 'dist' ? path.join(up, 'web') : path.join(up, 'dist', 'web');
}

/**
 * Paths the service answers itself: never shadowed by the web app's fallback page (the landing
 * pages of publications, `/publications/{id}…`, and their files under `/landing`, included).
 */
const RESERVED = /^\/(api|auth|graphql|health|metrics|assets|landing)(\/|$)|^\/publications\/[^/]+/;

// Everything the page loads comes from this origin: thumbnails and image previews are the
// service's own URLs (not data: URLs any more), downloads are links.
const CSP = [
  "default-src 'self'",
  "img-src 'self'",
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
  const pageIn = {
    br: readIfPresent(`${index}.br`) ?? zlib.brotliCompressSync(page),
    gzip: readIfPresent(`${index}.gz`) ?? zlib.gzipSync(page),
  };
  const sendPage = (req: express.Request, res: express.Response): void => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.vary('Accept-Encoding');
    const encoding = pickEncoding(req);
    if (encoding) {
      res.setHeader('content-encoding', encoding);
      res.setHeader('cache-control', 'no-cache');
      res.setHeader('content-security-policy', CSP);
      res.setHeader('x-content-type-options', 'nosniff');
      res.setHeader('referrer-policy', 'same-origin');
      res.send(pageIn[encoding]);
      return;
    }
    res.setHeader('cache-control', 'no-cache');
    res.setHeader('content-security-policy', CSP);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'same-origin');
    res.send(page);
  };
  router.use('/assets', precompressed(path.join(dir, 'assets')));
  router.use(
    '/assets',
    express.static(path.join(dir, 'assets'), {
      immutable: true,
      maxAge: '365d',
      index: false,
      fallthrough: true,
      setHeaders: (res, file) => {
        if (COMPRESSIBLE.test(file)) res.vary('Accept-Encoding');
      },
    }),
  );
  router.get(/.*/, (req, res, next) => {
    if (req.path !== '/' && (RESERVED.test(req.path) || !req.accepts('html') || !wantsHtml(req))) {
      next();
      return;
    }
    sendPage(req, res);
  });
  return router;
}

/** A browser navigating asks for text/html first; API clients (fetch, curl) send `*\/*` or JSON. */
function wantsHtml(req: express.Request): boolean {
  return (req.headers.accept ?? '').includes('text/html');
}

/** The built app's text files, written at build also as `.br` and `.gz` (scripts/build-web.ts). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|wasm)$/;
const SUFFIX = { br: '.br', gzip: '.gz' } as const;

function readIfPresent(file: string): Buffer | undefined {
  return fs.existsSync(file) ? fs.readFileSync(file) : undefined;
}

/**
 * br if the client takes it at least as gladly as gzip (browsers list `gzip, deflate, br` with no
 * q-values: brotli is smaller), else gzip, else none (identity), by Accept-Encoding's q-values.
 */
export function pickEncoding(req: express.Request): 'br' | 'gzip' | undefined {
  const q = new Map<string, number>();
  for (const part of (req.headers['accept-encoding'] ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qp ? Number(qp.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const of = (name: string): number => q.get(name) ?? q.get('*') ?? 0;
  const br = of('br');
  const gzip = of('gzip');
  if (br > 0 && br >= gzip) return 'br';
  return gzip > 0 ? 'gzip' : undefined;
}

/**
 * An asset's precompressed form (`name.br`, `name.gz`, written at build) for a client whose
 * Accept-Encoding takes it, with `Vary: Accept-Encoding` and the same year-long immutable caching
 * as the plain file; anything else (no such form, a Range request, identity only) goes on to the
 * static handler, which sends the file as it is.
 */
function precompressed(root: string): express.RequestHandler {
  const found = new Map<string, fs.Stats | null>();
  const statOf = (file: string): fs.Stats | null => {
    let st = found.get(file);
    if (st === undefined) {
      st = fs.statSync(file, { throwIfNoEntry: false }) ?? null;
      found.set(file, st);
    }
    return st;
  };
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !COMPRESSIBLE.test(req.path)) {
      next();
      return;
    }
    res.vary('Accept-Encoding');
    if (req.headers.range) {
      next();
      return;
    }
    const encoding = pickEncoding(req);
    if (!encoding) {
      next();
      return;
    }
    let rel: string;
    try {
      rel = decodeURIComponent(req.path);
    } catch {
      next();
      return;
    }
    const plain = path.resolve(root, `.${path.posix.normalize(`/${rel}`)}`);
    if (!plain.startsWith(root + path.sep)) {
      next();
      return;
    }
    const file = plain + SUFFIX[encoding];
    const st = statOf(file);
    if (!st?.isFile()) {
      next();
      return;
    }
    const etag = `"${st.size.toString(16)}-${st.mtimeMs.toString(16)}-${encoding}"`;
    res.type(path.extname(plain));
    res.setHeader('content-encoding', encoding);
    res.setHeader('cache-control', 'public, max-age=31536000, immutable');
    res.setHeader('etag', etag);
    res.setHeader('x-content-type-options', 'nosniff');
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    res.setHeader('content-length', String(st.size));
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    fs.createReadStream(file).on('error', next).pipe(res);
  };
}
