import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '@jest/types';
import { Client } from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/core/db/embedded';
import { announceTemplate, templateDir } from './embedded-template';
import { maintenanceUrl, workerDbEnv, workerDbName } from './worker-db';

declare global {
  var __EMBEDDED_PG__: EmbeddedPostgres[] | undefined;
  var __WORKER_DBS__: { url: string; workers: number } | undefined;
}

/**
 * Runs the migrations on `url`. The ORM and the entities are loaded only here: loading them (the
 * whole module graph, through jest's transform) was 2.5 of the 3.4 CPU-s this global setup took
 * on every run, spent to find nothing to do on the cached template, which is migrated by
 * construction (its key covers every migration file).
 */
async function migrateAt(url: string): Promise<void> {
  /* eslint-disable @typescript-eslint/no-require-imports -- lazy on purpose (see above) */
  const { createOrm, migrate } = require('../../src/core/db/orm') as typeof import('../../src/core/db/orm');
  const { ENTITIES } = require('../../src/modules/entities') as typeof import('../../src/modules/entities');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const orm = await createOrm({ clientUrl: url, entities: ENTITIES, poolMax: 2 });
  try {
    await migrate(orm);
  } finally {
    await orm.close(true);
    // jest hands globals set here to every test file; MikroORM's metadata store must not leak
    delete (globalThis as Record<string, unknown>)['mikro-orm-metadata'];
  }
}

/**
 * Makes the template (embedded-template.ts) from `pg`, a freshly migrated embedded database:
 * its dump, and the dump opened as a data directory. Written beside and renamed into place, so
 * runs in parallel never see half a template.
 */
async function writeTemplate(dir: string, pg: EmbeddedPostgres): Promise<void> {
  const tmp = `${dir}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  const tar = await pg.dump();
  fs.writeFileSync(path.join(tmp, 'pgdata.tar'), tar);
  const opened = await startEmbeddedPostgres({ dir: path.join(tmp, 'pgdata'), initialData: tar });
  await opened.stop();
  try {
    fs.renameSync(tmp, dir);
  } catch {
    // another run made it first
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** How many workers jest may start: each gets its own database (worker-db.ts). */
function workerCount(globalConfig: Config.GlobalConfig): number {
  return Math.max(1, globalConfig.maxWorkers);
}

/** The server database `url` names, cloned once per worker (its connections must be closed). */
async function cloneForWorkers(url: string, workers: number): Promise<void> {
  const parsed = new URL(url);
  const db = decodeURIComponent(parsed.pathname.slice(1));
  // from the maintenance database: a template must have no session, this one's included
  const client = new Client({ connectionString: maintenanceUrl(url) });
  await client.connect();
  try {
    for (let id = 1; id <= workers; id++) {
      const name = workerDbName(db, id);
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.query(`create database "${name}" template "${db}"`).catch((err: unknown) => {
        // PostgreSQL refuses to copy a database anyone is connected to (a running service, psql)
        throw new Error(
          `cannot make worker ${id}'s database from ${db} (close every session on it): ${String(err)}`,
        );
      });
      const own = new URL(url);
      own.pathname = `/${encodeURIComponent(name)}`;
      process.env[workerDbEnv(id)] = own.toString();
    }
  } finally {
    await client.end();
  }
}

/**
 * Makes a database per jest worker from a migrated template (worker-db.ts). Without
 * DATABASE_URL, embedded databases (PGlite cannot start inside a test file, so they run in this
 * process), each started from the cached template of a migrated one, made first when there is
 * none; with DATABASE_URL, the migrations run there and each worker gets a clone of it.
 * DATABASE_URL is left naming the first (what runs outside a worker uses it).
 */
export default async function globalSetup(globalConfig: Config.GlobalConfig): Promise<void> {
  const template = templateDir();
  const tar = path.join(template, 'pgdata.tar');
  const workers = workerCount(globalConfig);
  // where each file's CPU time is written (file-cpu.ts) for the reporter (slowest-files-reporter.cjs)
  process.env.TEST_CPU_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-test-cpu-'));
  // Node's on-disk compile cache for every Node process started from here on (the jest workers,
  // the end-to-end tests' service and command processes): loading dist/src/app.js took about
  // 1.4 CPU-s instead of 1.9 from the second process on (docs/development.md "Test suite time")
  process.env.NODE_COMPILE_CACHE ??= path.join(path.dirname(template), 'node-compile-cache');
  if (!process.env.DATABASE_URL) {
    const cached = fs.existsSync(tar);
    const first = await startEmbeddedPostgres({
      maxConnections: 64,
      initialData: cached ? fs.readFileSync(tar) : undefined,
    });
    if (!cached) {
      await migrateAt(first.url);
      await writeTemplate(template, first);
    }
    const data = fs.readFileSync(tar);
    const all = [first];
    for (let id = 2; id <= workers; id++) {
      all.push(await startEmbeddedPostgres({ maxConnections: 64, initialData: data }));
    }
    all.forEach((pg, i) => (process.env[workerDbEnv(i + 1)] = pg.url));
    process.env.DATABASE_URL = first.url;
    // tests that need a PostgreSQL server (test/support/pg-server.ts) skip on this one
    process.env.TEST_DB_EMBEDDED = 'true';
    globalThis.__EMBEDDED_PG__ = all;
  } else {
    await migrateAt(process.env.DATABASE_URL);
    await cloneForWorkers(process.env.DATABASE_URL, workers);
    globalThis.__WORKER_DBS__ = { url: process.env.DATABASE_URL, workers };
    if (!fs.existsSync(tar)) {
      const pg = await startEmbeddedPostgres();
      try {
        await migrateAt(pg.url);
        await writeTemplate(template, pg);
      } finally {
        await pg.stop();
      }
    }
  }
  announceTemplate(template);
}
