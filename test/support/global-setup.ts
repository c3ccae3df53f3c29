import fs from 'node:fs';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/core/db/embedded';
import { createOrm, migrate } from '../../src/core/db/orm';
import { ENTITIES } from '../../src/modules/entities';
import { announceTemplate, templateDir } from './embedded-template';

declare global {
  var __EMBEDDED_PG__: EmbeddedPostgres | undefined;
}

async function migrateAt(url: string): Promise<void> {
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

/**
 * Starts the embedded PostgreSQL once for the whole run (PGlite cannot start inside a test file)
 * unless DATABASE_URL names a server, then applies the migrations once. The embedded database
 * starts from the template of a migrated one when there is one, and makes it when there is not.
 */
export default async function globalSetup(): Promise<void> {
  const template = templateDir();
  const tar = path.join(template, 'pgdata.tar');
  const cached = fs.existsSync(tar);
  if (!process.env.DATABASE_URL) {
    const pg = await startEmbeddedPostgres({
      maxConnections: 64,
      initialData: cached ? fs.readFileSync(tar) : undefined,
    });
    await migrateAt(pg.url);
    if (!cached) await writeTemplate(template, pg);
    process.env.DATABASE_URL = pg.url;
    // tests that need a PostgreSQL server (test/support/pg-server.ts) skip on this one
    process.env.TEST_DB_EMBEDDED = 'true';
    globalThis.__EMBEDDED_PG__ = pg;
  } else {
    await migrateAt(process.env.DATABASE_URL);
    if (!cached) {
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
