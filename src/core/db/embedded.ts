import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { serveWire } from './embedded-wire';

/**
 * The embedded PostgreSQL: PGlite served over the PostgreSQL wire protocol on a loopback port,
 * so the application connects to it exactly as it would to a server (same driver, same SQL,
 * same migrations). Data persists in `dir` (or lives in memory when `dir` is omitted).
 *
 * While it runs, `<dir>/../embedded-db.json` records its URL and the owning process, so the
 * admin CLI can connect to the running service instead of opening the data directory twice.
 */
export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
  /** A tar of its data directory (PGlite's dumpDataDir), to start another one from (`initialData`). */
  dump(): Promise<Buffer>;
}

export interface EmbeddedOptions {
  dir?: string;
  port?: number;
  maxConnections?: number;
  /** A tar of a data directory (from `dump()`) to start from, instead of an empty database. */
  initialData?: Uint8Array;
  /**
   * PostgreSQL's `shared_buffers` (default 16MB; PostgreSQL's own default is 128MB). The buffer
   * pool lives in the process's WebAssembly memory, so it is resident memory of the service;
   * pages it does not hold are read back through the operating system's file cache.
   */
  sharedBuffers?: string;
}

/** The embedded database's buffer pool unless told otherwise (docs/operations.md). */
export const EMBEDDED_SHARED_BUFFERS = '16MB';

interface StateFile {
  url: string;
  pid: number;
}

export function embeddedStatePath(dataDir: string): string {
  return path.join(dataDir, 'embedded-db.json');
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The URL of an embedded database another live process is serving from `dataDir`, if any. */
export function runningEmbeddedUrl(dataDir: string): string | undefined {
  try {
    const state = JSON.parse(fs.readFileSync(embeddedStatePath(dataDir), 'utf8')) as StateFile;
    return state.pid !== process.pid && processAlive(state.pid) ? state.url : undefined;
  } catch {
    return undefined;
  }
}

export async function startEmbeddedPostgres(opts: EmbeddedOptions = {}): Promise<EmbeddedPostgres> {
  let statePath: string | undefined;
  if (opts.dir) {
    const dataDir = path.dirname(opts.dir);
    fs.mkdirSync(opts.dir, { recursive: true });
    const other = runningEmbeddedUrl(dataDir);
    if (other) {
      throw new Error(`the embedded database in ${opts.dir} is already in use by another process (${other})`);
    }
    statePath = embeddedStatePath(dataDir);
  }
  // pg_trgm must be loaded on every start: trigram indexes fail without it
  const db = await PGlite.create({
    dataDir: opts.dir ?? 'memory://',
    extensions: { pg_trgm },
    loadDataDir: opts.initialData && new Blob([opts.initialData]),
    // PGlite's own parameters, then ours
    startParams: [
      ...PGlite.defaultStartParams,
      '-c',
      `shared_buffers=${opts.sharedBuffers ?? EMBEDDED_SHARED_BUFFERS}`,
    ],
  });
  const server = await serveWire(db, {
    host: '127.0.0.1',
    port: opts.port ?? 0,
    maxConnections: opts.maxConnections ?? 32,
  });
  const url = `postgresql://postgres:postgres@127.0.0.1:${server.port}/postgres`;
  if (statePath) fs.writeFileSync(statePath, JSON.stringify({ url, pid: process.pid } satisfies StateFile));
  let stopped = false;
  return {
    url,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await db.close();
      if (statePath) fs.rmSync(statePath, { force: true });
    },
    async dump() {
      return Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
    },
  };
}
