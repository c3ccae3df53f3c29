import { randomInt } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../logger';

/** The advisory-lock namespace of process liveness (first key of the two-key form). */
const NAMESPACE = 7247_2001;
const CHECK_MS = 3000;

/**
 * This process's identity in leases (`job.holder`, `upload_session.lease_holder`). While the
 * process lives it holds the session advisory lock (NAMESPACE, HOLDER) on a connection of its
 * own; PostgreSQL drops the lock with the session when the process dies (kill -9 included), so
 * a lease whose holder's lock is gone is free at once instead of after its timeout.
 */
export const HOLDER = randomInt(1, 2 ** 31 - 1);

/**
 * SQL: the holders alive now (their liveness lock is held), as a subquery for `holder in (…)`.
 * On the embedded database every connection shares one session: a holder that died while the
 * service kept running stays "alive" there, and its leases run out by time instead.
 */
export const LIVE_HOLDERS = `(select l.objid::bigint from pg_locks l
  where l.locktype = 'advisory' and l.classid::bigint = ${NAMESPACE} and l.objsubid = 2 and l.granted
    and l.database = (select oid from pg_database where datname = current_database()))`;

/** A lease column free for a new holder: unset, timed out, or held by a process that is gone. */
export function leaseFree(untilColumn: string, holderColumn: string): string {
  return `(${untilColumn} is null or ${untilColumn} < now() or (${holderColumn} is not null and ${holderColumn} not in ${LIVE_HOLDERS}))`;
}

interface PgClient {
  connect(): Promise<void>;
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
  on(event: 'error', listener: (err: Error) => void): void;
}

/** Holds the liveness lock: one per process, shared by every app and worker in it. */
class LivenessLock {
  private client: PgClient | null = null;
  private timer: NodeJS.Timeout | null = null;
  private checking = false;
  users = 0;

  constructor(
    private readonly connect: () => PgClient,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    await this.lock();
    this.timer = setInterval(() => void this.check(), CHECK_MS);
    this.timer.unref();
  }

  private async lock(): Promise<void> {
    const client = this.connect();
    client.on('error', (err) => {
      this.log.warn({ err }, 'liveness connection lost');
      if (this.client === client) this.client = null;
    });
    await client.connect();
    const { rows } = await client.query('select pg_try_advisory_lock($1, $2) as ok', [NAMESPACE, HOLDER]);
    if (rows[0]?.ok !== true) {
      await client.end();
      throw new Error(`liveness lock ${HOLDER} is held by another process`);
    }
    this.client = client;
  }

  /** Re-takes the lock after the database came back (a restart ends every session). */
  private async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      if (this.client) await this.client.query('select 1');
      else await this.lock();
    } catch (err) {
      const lost = this.client;
      this.client = null;
      await lost?.end().catch(() => undefined);
      this.log.debug({ err }, 'liveness lock not held; retrying');
    } finally {
      this.checking = false;
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    const client = this.client;
    this.client = null;
    if (!client) return;
    await client.query('select pg_advisory_unlock($1, $2)', [NAMESPACE, HOLDER]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

let current: LivenessLock | null = null;

/**
 * Takes this process's liveness lock on the database of `orm` (once per process: later calls
 * share it). Call the returned function to let it go.
 */
export async function holdLiveness(orm: MikroORM, url: string, log: Logger): Promise<() => Promise<void>> {
  if (!current) {
    const driver = (
      orm.em.getConnection().getKnex().client as { driver: { Client: new (o: object) => PgClient } }
    ).driver;
    const lock = new LivenessLock(() => new driver.Client({ connectionString: url }), log);
    current = lock;
    try {
      await lock.start();
    } catch (err) {
      current = null;
      throw err;
    }
  }
  const lock = current;
  lock.users++;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    if (--lock.users > 0) return;
    if (current === lock) current = null;
    await lock.stop();
  };
}
