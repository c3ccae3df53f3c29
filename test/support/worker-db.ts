/**
 * A database per jest worker, so that test files running at the same time cannot see each
 * other's rows (nor wait on each other's transactions). global-setup.ts makes them from the
 * migrated template and names each in `TEST_DATABASE_URL_<worker id>`; setup-env.ts points
 * DATABASE_URL at the worker's own before a test file loads.
 *
 * - Embedded database: one PGlite per worker, each started from the template's tar (PGlite is
 *   one session: a single instance also makes every worker wait on another's transactions).
 * - PostgreSQL server (DATABASE_URL given): `CREATE DATABASE <db>_w<id> TEMPLATE <db>` after
 *   the migrations have run on DATABASE_URL's database; dropped by global-teardown.ts.
 */
export const WORKER_DB_ENV = 'TEST_DATABASE_URL_';

/** The jest worker running this file (1 when jest runs in band). */
export function workerId(): number {
  return Number(process.env.JEST_WORKER_ID ?? '1');
}

/** The environment variable naming worker `id`'s database. */
export function workerDbEnv(id: number): string {
  return `${WORKER_DB_ENV}${id}`;
}

/** The name of worker `id`'s clone of the server database `db`. */
export function workerDbName(db: string, id: number): string {
  return `${db}_w${id}`;
}

/** `url` on the server's maintenance database (postgres), to create and drop the clones from. */
export function maintenanceUrl(url: string): string {
  const parsed = new URL(url);
  parsed.pathname = '/postgres';
  return parsed.toString();
}
