import 'reflect-metadata';
import { MikroORM, defineConfig, type PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { MIGRATIONS } from '../../../migrations';
import type { Logger } from '../logger';

export interface OrmOptions {
  clientUrl: string;
  /** the entity classes, handed over by the application (`ENTITIES`) */
  entities: Options['entities'];
  poolMax?: number;
  logger?: Logger;
  /** Called with every SQL statement the ORM sends (tests count statements with it). */
  onQuery?: (sql: string) => void;
}

/** One MikroORM configuration for the embedded database and a server: only the URL differs. */
export function ormConfig(opts: OrmOptions): Options<PostgreSqlDriver> {
  const { onQuery, logger } = opts;
  return defineConfig({
    clientUrl: opts.clientUrl,
    entities: opts.entities,
    extensions: [Migrator],
    pool: { min: 0, max: opts.poolMax ?? 10 },
    forceUtcTimezone: true,
    allowGlobalContext: false,
    ignoreUndefinedInQuery: true,
    debug: onQuery ? ['query'] : false,
    logger: (message: string) => {
      if (onQuery) {
        onQuery(message);
        return;
      }
      logger?.debug({ orm: message });
    },
    colors: false,
    // knex's own messages (a pooled connection lost when the server restarts...) go to the logger
    driverOptions: {
      log: {
        warn: (message: unknown) => logger?.warn({ knex: message }, 'database driver warning'),
        error: (message: unknown) => logger?.error({ knex: message }, 'database driver error'),
        deprecate: (message: unknown) => logger?.debug({ knex: message }, 'database driver deprecation'),
        debug: (message: unknown) => logger?.debug({ knex: message }, 'database driver'),
      },
    },
    discovery: { warnWhenNoEntities: true },
    migrations: {
      migrationsList: MIGRATIONS,
      path: 'migrations',
      pathTs: 'migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      emit: 'ts',
    },
  });
}

export async function createOrm(opts: OrmOptions): Promise<MikroORM> {
  return MikroORM.init(ormConfig(opts));
}

const MIGRATION_LOCK = 7247_1000;

/**
 * Applies pending migrations under a PostgreSQL advisory lock, so replicas starting together
 * apply them once. Returns the name of the newest applied migration (the schema revision).
 */
export async function migrate(orm: MikroORM, log?: Logger): Promise<string | null> {
  const knex = orm.em.getConnection().getKnex();
  const pool = knex.client as {
    acquireConnection(): Promise<object>;
    releaseConnection(c: object): Promise<void>;
  };
  // a session-level lock on an idle connection: the migrator's own transaction runs elsewhere
  const conn = await pool.acquireConnection();
  try {
    await knex.raw('select pg_advisory_lock(?)', [MIGRATION_LOCK]).connection(conn);
    await orm.migrator.up();
  } finally {
    await knex.raw('select pg_advisory_unlock(?)', [MIGRATION_LOCK]).connection(conn);
    await pool.releaseConnection(conn);
  }
  if (log) await reportMfidCollisions(orm, log);
  return schemaRevision(orm);
}

/**
 * Warns of every MFID the database held for more than one record before each MFID was kept for
 * one record forever (`mfid_collision`, found by its migration), until an administrator resolves
 * them (docs/operations.md, "MFID collisions").
 */
async function reportMfidCollisions(orm: MikroORM, log: Logger): Promise<void> {
  const rows = await orm.em
    .getConnection()
    .execute<{ mfid: string; detail: string }[]>(
      'select mfid, detail from mfid_collision order by mfid limit 21',
    );
  if (rows.length === 0) return;
  log.warn(
    { collisions: rows.slice(0, 20), more: rows.length > 20 },
    'MFIDs held by more than one record before this version: per-resource rows (metadata, history, grants) of these may be shared; see docs/operations.md, "MFID collisions"',
  );
}

export async function schemaRevision(orm: MikroORM): Promise<string | null> {
  const executed = await orm.migrator.getExecutedMigrations();
  return executed.length > 0 ? executed[executed.length - 1].name : null;
}
