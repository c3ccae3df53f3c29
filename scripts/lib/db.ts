import type { MikroORM } from '@mikro-orm/postgresql';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/core/db/embedded';
import { createOrm } from '../../src/core/db/orm';
import { ENTITIES } from '../../src/modules/entities';

/**
 * A database for maintenance scripts: `DATABASE_URL` when set, otherwise a throwaway in-memory
 * embedded PostgreSQL.
 */
export async function scratchOrm(): Promise<{ orm: MikroORM; close: () => Promise<void> }> {
  let embedded: EmbeddedPostgres | undefined;
  let url = process.env.DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedPostgres();
    url = embedded.url;
  }
  const orm = await createOrm({ clientUrl: url, entities: ENTITIES, poolMax: 4 });
  return {
    orm,
    close: async () => {
      await orm.close(true);
      await embedded?.stop();
    },
  };
}
