import type { MikroORM } from '@mikro-orm/postgresql';
import { rawQuery } from '../db/raw';
import { gauge } from './registry';

/** The connection pool knex keeps (tarn). */
interface Pool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  max: number;
}

/** The databases this process uses (normally one; tests run several apps in one process). */
const attached = new Set<MikroORM>();

function poolOf(orm: MikroORM): Pool | undefined {
  const client = orm.em.getConnection().getKnex().client as { pool?: Pool };
  return client.pool ?? undefined;
}

function sumPools(read: (p: Pool) => number): number {
  let total = 0;
  for (const orm of attached) {
    const pool = poolOf(orm);
    if (pool) total += read(pool);
  }
  return total;
}

gauge('catalog_db_pool_connections_in_use', 'Database connections lent out of the pool.', [], (g) => {
  g.set(sumPools((p) => p.numUsed()));
});
gauge('catalog_db_pool_connections_idle', 'Open database connections waiting in the pool.', [], (g) => {
  g.set(sumPools((p) => p.numFree()));
});
gauge(
  'catalog_db_pool_waiting',
  'Requests waiting for a database connection (the pool is saturated when this stays above 0).',
  [],
  (g) => {
    g.set(sumPools((p) => p.numPendingAcquires()));
  },
);
gauge('catalog_db_pool_size_max', 'Largest number of connections the pool opens (DB_POOL_MAX).', [], (g) => {
  g.set(sumPools((p) => p.max));
});

interface QueueRow {
  queue: string;
  status: string;
  n: number;
  oldest: number | null;
}

/**
 * The job table as a whole (every process sharing the database reports the same figures):
 * jobs by queue and status, and the age of each queue's oldest unfinished job.
 */
gauge(
  'catalog_job_queue_depth',
  'Jobs in the queue table, by queue and status (queued, running, failed = dead letter).',
  ['queue', 'status'],
  async (g) => {
    const rows = await queueRows();
    g.reset();
    for (const r of rows) g.set({ queue: r.queue, status: r.status }, r.n);
  },
);
gauge(
  'catalog_job_oldest_age_seconds',
  'Age of the oldest queued or running job, by queue (0 when the queue is empty).',
  ['queue'],
  async (g) => {
    const rows = await queueRows();
    g.reset();
    const oldest = new Map<string, number>();
    for (const r of rows) {
      const age = r.status === 'failed' ? 0 : (r.oldest ?? 0);
      oldest.set(r.queue, Math.max(oldest.get(r.queue) ?? 0, age));
    }
    for (const [queue, age] of oldest) g.set({ queue }, age);
  },
);

/** One query serves both queue gauges of a scrape. */
let pending: Promise<QueueRow[]> | null = null;
function queueRows(): Promise<QueueRow[]> {
  const orm = attached.values().next().value;
  if (!orm) return Promise.resolve([]);
  pending ??= rawQuery<QueueRow>(
    orm.em.fork(),
    `select queue, status, count(*)::int as n,
       extract(epoch from now() - min(created_at))::float8 as oldest
     from job group by queue, status`,
  )
    .catch(() => [] as QueueRow[])
    .finally(() => setImmediate(() => (pending = null)));
  return pending;
}

/** Reports `orm`'s pool and the job queue in this process's metrics; returns the detach function. */
export function attachDatabaseMetrics(orm: MikroORM): () => void {
  attached.add(orm);
  return () => {
    attached.delete(orm);
  };
}
