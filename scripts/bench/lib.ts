/** Shared helpers of the benchmark scripts: scratch databases, timing, percentiles and table output. */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/core/config';
import { createLogger } from '../../src/core/logger';
import { createApp, type App } from '../../src/app';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/core/db/embedded';
import { rawQuery } from '../../src/core/db/raw';
import { createOrm } from '../../src/core/db/orm';
import { ENTITIES } from '../../src/modules/entities';

export interface Stats {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `task` `total` times with `concurrency` in flight; latencies in milliseconds. */
export async function measure(
  total: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<Stats> {
  const latencies: number[] = [];
  let next = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const t0 = process.hrtime.bigint();
      await task(i);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  return {
    requests: total,
    seconds,
    perSecond: total / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
  };
}

export function printTable(title: string, rows: [string, Stats][]): void {
  console.log(`\n${title}`);
  console.log('| case | requests | req/s | p50 ms | p95 ms | p99 ms |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [name, s] of rows) {
    console.log(
      `| ${name} | ${s.requests} | ${s.perSecond.toFixed(1)} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.p99.toFixed(1)} |`,
    );
  }
}

export async function ok(res: Response): Promise<unknown> {
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * A scratch database: a throwaway embedded one, or (with DATABASE_URL) a database created on
 * that server and dropped afterwards.
 */
export async function scratchDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = process.env.DATABASE_URL;
  if (!server) {
    const embedded: EmbeddedPostgres = await startEmbeddedPostgres();
    return { url: embedded.url, drop: () => embedded.stop() };
  }
  const name = `${prefix}_${process.pid}`;
  const onServer = async (statement: string) => {
    const orm = await createOrm({ clientUrl: server, entities: ENTITIES, poolMax: 1 });
    try {
      await rawQuery(orm.em.fork(), statement);
    } finally {
      await orm.close(true);
    }
  };
  await onServer(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(`drop database if exists ${name} with (force)`) };
}

/**
 * The service in this process on a scratch database (`scratchDatabase(prefix)`) or an `existing`
 * one, listening on a free port; `env`: settings of its own (e.g. `GRAPH_MAX_NODES`).
 */
export async function benchService(
  prefix: string,
  env: Record<string, string> = {},
  /** an existing database to serve instead of a scratch one (never dropped) */
  existing?: string,
): Promise<{
  app: App;
  base: string;
  /** drops the database unless `keep`; removes the data directory */
  close: (keep?: boolean) => Promise<void>;
  url: string;
}> {
  const db = existing ? { url: existing, drop: async () => {} } : await scratchDatabase(prefix);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `catalog-${prefix}-`));
  const config = loadConfig({
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SHUTDOWN_TIMEOUT_MS: '0',
    ...env,
  });
  const app = await createApp({ config, log: createLogger('silent'), databaseUrl: db.url });
  const port = await app.listen(0, '127.0.0.1');
  return {
    app,
    base: `http://127.0.0.1:${port}`,
    url: db.url,
    close: async (keep = false) => {
      app.server.closeAllConnections();
      await app.close();
      if (!keep) await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A webhook receiver: when each event id arrived; `hang` never answers. */
export async function webhookReceiver(hang = false) {
  const arrived = new Map<string, bigint>();
  const server = http.createServer((req, res) => {
    const id = req.headers['webhook-id'];
    req.resume();
    req.on('end', () => {
      if (typeof id === 'string' && !arrived.has(id)) arrived.set(id, process.hrtime.bigint());
      if (!hang) res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrived,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) =>
        server.close(() => {
          r();
        }),
      );
    },
  };
}
