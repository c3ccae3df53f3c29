import { execFileSync } from 'node:child_process';
import path from 'node:path';

const SCRIPTS = path.resolve(__dirname, '../../scripts');

export interface PgServer {
  url: string;
  /** stops the server (fast shutdown: sessions are ended) */
  stop(): void;
  /** starts it again on the same port and data */
  start(): void;
  /** stops it for good and removes its directory */
  remove(): void;
}

/**
 * A PostgreSQL server of its own (scripts/pg-up.sh), for tests that stop and start the server
 * and so must not share the suite's.
 */
export function privatePgServer(): PgServer {
  const exports = execFileSync('bash', [path.join(SCRIPTS, 'pg-up.sh')], { encoding: 'utf8' });
  const env: Record<string, string> = {};
  for (const m of exports.matchAll(/(\w+)=(\S+)/g)) env[m[1]] = m[2];
  const ctl = (...args: string[]) =>
    execFileSync('bash', [path.join(SCRIPTS, 'pg-ctl.sh'), env.PG_TMP, env.PGPORT, ...args], {
      encoding: 'utf8',
      env: { ...process.env, PGBIN: env.PGBIN },
    });
  return {
    url: env.DATABASE_URL,
    stop: () => ctl('stop'),
    start: () => ctl('start'),
    remove: () =>
      execFileSync('bash', [path.join(SCRIPTS, 'pg-down.sh'), env.PG_TMP], {
        env: { ...process.env, PGBIN: env.PGBIN },
      }),
  };
}

/** Whether the suite runs on a PostgreSQL server (tests needing one skip on the embedded database). */
export const onServer = process.env.TEST_DB_EMBEDDED !== 'true';
