import fs from 'node:fs';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig, type Config } from '../core/config';
import { createOrm, migrate } from '../core/db/orm';
import { ENTITIES } from '../modules/entities';
import { cliIo } from './output';
import { runningEmbeddedUrl, startEmbeddedPostgres, type EmbeddedPostgres } from '../core/db/embedded';

export interface DatabaseOptions {
  /** false: the schema is left as it is (restore applies migrations itself) */
  migrateFirst?: boolean;
  /**
   * May a fresh embedded database be created when DATA_DIR holds none (create-user before the
   * first start, restore into a new DATA_DIR)? Every other command refuses: it would work on an
   * empty database instead of the service's.
   */
  mayCreate?: boolean;
}

/** A database URL as it may be shown: its password replaced. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(DATABASE_URL is not a URL)';
  }
}

/** Whether `dir` holds an embedded (PGlite) database's files. */
function holdsDatabase(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'PG_VERSION'));
}

/** Tells which database a command works on (stderr: stdout stays the command's output). */
function announce(text: string): void {
  cliIo().err(`database: ${text}\n`);
}

/**
 * The database the command line works on: DATABASE_URL, else the embedded database of the
 * service running on DATA_DIR, else DATA_DIR's embedded database opened here (service stopped).
 * Which one is written to stderr before anything runs. A DATA_DIR without a database is refused
 * unless `mayCreate` (docs/operations.md, "The admin command line").
 */
export async function withDatabase<T>(
  fn: (orm: MikroORM, config: Config) => Promise<T>,
  opts: DatabaseOptions = {},
): Promise<T> {
  const config = loadConfig(cliIo().env);
  const dir = path.resolve(config.dataDir, 'db');
  let url = config.databaseUrl;
  let embedded: EmbeddedPostgres | undefined;
  if (url) announce(`${redactedUrl(url)} (DATABASE_URL)`);
  else {
    url = runningEmbeddedUrl(config.dataDir);
    if (url) announce(`the embedded database in ${dir}, through the service running on it`);
    else {
      const exists = holdsDatabase(dir);
      if (!exists && !opts.mayCreate) {
        throw new Error(
          `there is no database in ${dir}. Set DATA_DIR to the data directory of the service ` +
            `(or DATABASE_URL to its PostgreSQL server); only create-user and restore start a new one.`,
        );
      }
      announce(`the embedded database in ${dir}${exists ? '' : ' (none there: a new one is created)'}`);
      embedded = await startEmbeddedPostgres({ dir });
      url = embedded.url;
    }
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
