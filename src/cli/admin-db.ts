import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig, type Config } from '../core/config';
import { createOrm, migrate } from '../core/db/orm';
import { ENTITIES } from '../modules/entities';
import { runningEmbeddedUrl, startEmbeddedPostgres, type EmbeddedPostgres } from '../core/db/embedded';

/**
 * The database the command line works on: DATABASE_URL, else the embedded database of the
 * service running on DATA_DIR, else DATA_DIR's embedded database opened here (service stopped).
 * `migrateFirst: false` leaves the schema as it is (restore applies migrations itself).
 */
export async function withDatabase<T>(
  fn: (orm: MikroORM, config: Config) => Promise<T>,
  opts: { migrateFirst?: boolean } = {},
): Promise<T> {
  const config = loadConfig();
  let url = config.databaseUrl ?? runningEmbeddedUrl(config.dataDir);
  let embedded: EmbeddedPostgres | undefined;
  if (!url) {
    embedded = await startEmbeddedPostgres({ dir: path.join(config.dataDir, 'db') });
    url = embedded.url;
  }
  const orm = await createOrm({ clientUrl: url, entities: ENTITIES, poolMax: 2 });
  try {
    if (opts.migrateFirst !== false) await migrate(orm);
    return await fn(orm, config);
  } finally {
    await orm.close(true);
    await embedded?.stop();
  }
}
