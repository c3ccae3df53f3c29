import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/core/db/embedded';
import { createOrm, migrate } from '../../src/core/db/orm';
import { ENTITIES } from '../../src/modules/entities';

declare global {
  var __EMBEDDED_PG__: EmbeddedPostgres | undefined;
}

/**
 * Starts the embedded PostgreSQL once for the whole run (PGlite cannot start inside a test file)
 * unless DATABASE_URL names a server, then applies the migrations once.
 */
export default async function globalSetup(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    const pg = await startEmbeddedPostgres({ maxConnections: 64 });
    process.env.DATABASE_URL = pg.url;
    // tests that need a PostgreSQL server (test/support/pg-server.ts) skip on this one
    process.env.TEST_DB_EMBEDDED = 'true';
    globalThis.__EMBEDDED_PG__ = pg;
  }
  const orm = await createOrm({ clientUrl: process.env.DATABASE_URL, entities: ENTITIES, poolMax: 2 });
  try {
    await migrate(orm);
  } finally {
    await orm.close(true);
    // jest hands globals set here to every test file; MikroORM's metadata store must not leak
    delete (globalThis as Record<string, unknown>)['mikro-orm-metadata'];
  }
}
