import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

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

async function main(): Promise<void> {
  const hash = inputsHash();
  const fresh =
    fs.existsSync(path.join(OUT, 'index.html')) &&
    fs.existsSync(STAMP) &&
    fs.readFileSync(STAMP, 'utf8') === hash;
  if (fresh && !process.argv.includes('--force')) return;
  const vite = await import('vite');
  await vite.build({ configFile: path.join(WEB, 'vite.config.mts') });
  fs.writeFileSync(STAMP, hash);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `web build failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
