import fs from 'node:fs';
import path from 'node:path';

/**
 * A backup directory:
 *
 *   manifest.json         this description, written last (a directory without it is incomplete)
 *   db/<table>.jsonl      one JSON object per row (`row_to_json` of the stored columns), in
 *                         primary-key order
 *   objects/<key>         the bytes of every object the database references
 *   objects.jsonl         one `{key, size, sha256}` per object
 */
export const BACKUP_FORMAT = 'catalog-backup';
export const BACKUP_VERSION = 1;

export interface TableEntry {
  name: string;
  columns: string[];
  rows: number;
  file: string;
  sha256: string;
}

export interface ObjectEntry {
  key: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  createdAt: string;
  /** the newest migration the database had: restore builds exactly this schema before loading */
  schemaRevision: string;
  /** `select version()` of the source */
  server: string;
  tables: TableEntry[];
  sequences: { name: string; value: string | null }[];
  objects: { count: number; bytes: number; file: string; sha256: string; missing: string[] };
}

export const MANIFEST = 'manifest.json';

export function readManifest(dir: string): Manifest {
  const file = path.join(dir, MANIFEST);
  if (!fs.existsSync(file)) throw new Error(`${dir} holds no complete backup (no ${MANIFEST})`);
  // read from disk: any file may stand there, so its format and version are not yet known
  const read = JSON.parse(fs.readFileSync(file, 'utf8')) as { format?: unknown; version?: unknown };
  if (read.format !== BACKUP_FORMAT || read.version !== BACKUP_VERSION) {
    throw new Error(`${file} is not a ${BACKUP_FORMAT} version ${BACKUP_VERSION} manifest`);
  }
  return read as Manifest;
}

export function writeManifest(dir: string, manifest: Manifest): void {
  const tmp = path.join(dir, `${MANIFEST}.tmp`);
  fs.writeFileSync(tmp, `${JSON.stringify(manifest, null, 2)}\n`);
  fs.renameSync(tmp, path.join(dir, MANIFEST));
}
