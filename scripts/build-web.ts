import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * Builds the web app (web/ → dist/web) with Vite, part of `npm run build`. Skipped when its inputs
 * (web/, package-lock.json) are unchanged since the last build: the hash is kept in dist/web.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const WEB = path.join(ROOT, 'web');
const OUT = path.join(ROOT, 'dist', 'web');
const STAMP = path.join(OUT, '.inputs-sha256');

function inputsHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const entry of fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(path.relative(ROOT, full)).update('\0').update(fs.readFileSync(full));
    }
  };
  walk(WEB);
  hash.update(fs.readFileSync(path.join(ROOT, 'package-lock.json')));
  return hash.digest('hex');
}

/** Text the page loads: compressed at build, once, at the highest levels (docs/web-app.md). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|wasm)$/;

/**
 * Writes `name.br` and `name.gz` beside every compressible file of the built app, when smaller:
 * the server sends them to browsers that accept them (src/core/http/web-app.ts), so no asset is
 * compressed per request.
 */
function precompress(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      precompress(full);
      continue;
    }
    if (!COMPRESSIBLE.test(entry.name)) continue;
    const raw = fs.readFileSync(full);
    const br = zlib.brotliCompressSync(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
    const gz = zlib.gzipSync(raw, { level: zlib.constants.Z_BEST_COMPRESSION });
    if (br.length < raw.length) fs.writeFileSync(`${full}.br`, br);
    if (gz.length < raw.length) fs.writeFileSync(`${full}.gz`, gz);
  }
}

async function main(): Promise<void> {
  const hash = inputsHash();
  const fresh =
    fs.existsSync(path.join(OUT, 'index.html')) &&
    fs.existsSync(STAMP) &&
    fs.readFileSync(STAMP, 'utf8') === hash;
  if (fresh && !process.argv.includes('--force')) return;
  const vite = await import('vite');
  await vite.build({ configFile: path.join(WEB, 'vite.config.mts') });
  precompress(OUT);
  fs.writeFileSync(STAMP, hash);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `web build failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
