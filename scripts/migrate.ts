import path from 'node:path';
import { loadConfig } from '../src/core/config';
import { createOrm, migrate } from '../src/core/db/orm';
import { ENTITIES } from '../src/modules/entities';
import { startEmbeddedPostgres, runningEmbeddedUrl, type EmbeddedPostgres } from '../src/core/db/embedded';

/** Applies pending migrations to DATABASE_URL, or to the embedded database under DATA_DIR. */
async function main(): Promise<void> {
  const config = loadConfig();
  let url = config.databaseUrl ?? runningEmbeddedUrl(config.dataDir);
  let embedded: EmbeddedPostgres | undefined;
  if (!url) {
    embedded = await startEmbeddedPostgres({ dir: path.join(config.dataDir, 'db') });
    url = embedded.url;
  }
  const orm = await createOrm({ clientUrl: url, entities: ENTITIES, poolMax: 2 });
  try {
    const revision = await migrate(orm);
    console.log(`Schema at revision ${revision ?? '(none)'}.`);
  } finally {
    await orm.close(true);
    await embedded?.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
