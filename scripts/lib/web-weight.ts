import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { webAppDir } from '../../src/core/http/web-app';

/** The page-weight budget of the web app: initial JavaScript, gzipped (issue 15). */
export const INITIAL_JS_BUDGET_BYTES = 300 * 1024;

/**
 * The JavaScript the first page load runs: the entry chunk and every chunk it imports statically
 * (lazy chunks, such as the graph drawing, are left out), read from Vite's manifest in dist/web.
 */
export function initialJs(dir = webAppDir()): { files: string[]; gzipBytes: number } {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    { file: string; isEntry?: boolean; imports?: string[] }
  >;
  const seen = new Set<string>();
  const visit = (key: string): void => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const i of manifest[key].imports ?? []) visit(i);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  const files = [...seen].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
  const gzipBytes = files.reduce((sum, f) => sum + gzipSync(fs.readFileSync(path.join(dir, f))).length, 0);
  return { files, gzipBytes };
}
