import { EventEmitter } from 'node:events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../db/raw';
import { HOLDER, LIVE_HOLDERS } from '../db/liveness';

/** A job as a worker holds it. `queue` is the logical name (without the configured prefix). */
export interface ClaimedJob {
  id: number;
  queue: string;
  payload: Record<string, unknown>;
  /** this attempt's number, from 1 */
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
}

export interface QueueOptions {
  /** prepended to every queue name (deployments sharing a database stay apart) */
  prefix: string;
  maxAttempts: number;
  retryBaseMs: number;
}

interface JobRow {
  /** A bigint column: the driver may hand it over as a string. */
  id: number | string;
  queue: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
}

const MAX_ERROR = 4000;

/**
 * The payload key that makes jobs run one after another: a job whose payload has it is not
 * claimed while an earlier job (a smaller id) of the same queue with the same value is queued,
 * waiting to retry or running (docs/publications.md, "DOIs through DataCite": one publication's jobs).
 */
export const SERIAL_KEY = '$serial';
const MAX_BACKOFF_MS = 3_600_000;

/**
 * A durable job queue in PostgreSQL (the `job` table). Enqueueing goes through the caller's
 * EntityManager, so inside a transaction the job commits (or not) with the caller's rows; the
 * workers of this process are woken as soon as that transaction has committed. Claims use
 * `FOR UPDATE SKIP LOCKED`, so any number of workers on any number of machines share a queue
 * without taking the same job twice. Every method other than `enqueue` is for workers.
 */
export class JobQueue {
  private readonly events = new EventEmitter();

  constructor(private readonly opts: QueueOptions) {
    this.events.setMaxListeners(0);
  }

  private stored(queue: string): string {
    return `${this.opts.prefix}${queue}`;
  }

  private toJob(row: JobRow): ClaimedJob {
    return {
      id: Number(row.id),
      queue: row.queue.slice(this.opts.prefix.length),
      payload: row.payload,
      attempts: row.attempts,
      maxAttempts: row.max_attempts,
      lastError: row.last_error,
    };
  }

  /** Calls `listener` with the queue name whenever this process has enqueued (and committed) a job. */
  onEnqueued(listener: (queue: string) => void): () => void {
    this.events.on('enqueued', listener);
    return () => this.events.off('enqueued', listener);
  }

  /** Adds a job through `em` (inside its transaction when it has one); returns its id. */
  async enqueue(
    em: EntityManager,
    queue: string,
    payload: Record<string, unknown>,
    opts: {
      maxAttempts?: number;
      delayMs?: number;
      /**
       * Jobs of the same queue and `serialKey` run one at a time, in the order they were enqueued
       * (stored in the payload as {@link SERIAL_KEY}); an earlier one that failed for good no
       * longer holds the later ones back.
       */
      serialKey?: string;
    } = {},
  ): Promise<number> {
    const rows = await rawQuery<{ id: number | string }>(
      em,
      `insert into job (queue, payload, max_attempts, run_at)
       values (?, ?::jsonb, ?, now() + make_interval(secs => ?)) returning id`,
      [
        this.stored(queue),
        JSON.stringify(opts.serialKey === undefined ? payload : { ...payload, [SERIAL_KEY]: opts.serialKey }),
        opts.maxAttempts ?? this.opts.maxAttempts,
        (opts.delayMs ?? 0) / 1000,
      ],
    );
    const notify = () => this.events.emit('enqueued', queue);
    // knex settles a transaction's executionPromise once it has committed (or rolled back)
    const trx = em.getTransactionContext<{ executionPromise?: Promise<unknown> }>();
    if (trx?.executionPromise) trx.executionPromise.then(notify, () => undefined);
    else setImmediate(notify);
    return Number(rows[0].id);
  }

  /**
   * Claims up to `limit` jobs of `queues` that are due, or whose worker died (its process's
   * liveness lock is gone, or its lease ran out), for `workerId` until now + `leaseMs`. Each
   * claim counts as an attempt. A serial job waits for the earlier unfinished ones of its key.
   */
  async claim(
    em: EntityManager,
    queues: readonly string[],
    limit: number,
    workerId: string,
    leaseMs: number,
  ): Promise<ClaimedJob[]> {
    if (!queues.length || limit < 1) return [];
    const rows = await rawQuery<JobRow>(
      em,
      `update job set status = 'running', attempts = attempts + 1, locked_by = ?, holder = ?,
         locked_until = now() + make_interval(secs => ?), updated_at = now()
       where id in (
         select j.id from job j
         where j.queue in (?) and ((j.status = 'queued' and j.run_at <= now())
           or (j.status = 'running' and (j.locked_until < now()
             or (j.holder is not null and j.holder not in ${LIVE_HOLDERS}))))
           -- serial jobs: none while an earlier one of the same key is unfinished
           and (j.payload ->> '${SERIAL_KEY}' is null or not exists (
             select 1 from job e
             where e.queue = j.queue and e.payload ->> '${SERIAL_KEY}' = j.payload ->> '${SERIAL_KEY}'
               and e.id < j.id and e.status in ('queued', 'running')))
         order by j.run_at, j.id
         limit ?
         for update skip locked)
       returning id, queue, payload, attempts, max_attempts, last_error`,
      [workerId, HOLDER, leaseMs / 1000, queues.map((q) => this.stored(q)), limit],
    );
    return rows.map((r) => this.toJob(r)).sort((a, b) => a.id - b.id);
  }

  /** Renews a lease; false when the job is no longer this worker's (its lease ran out and it was taken). */
  async extend(em: EntityManager, job: ClaimedJob, workerId: string, leaseMs: number): Promise<boolean> {
    const rows = await rawQuery(
      em,
      `update job set locked_until = now() + make_interval(secs => ?), updated_at = now()
       where id = ? and locked_by = ? and status = 'running' returning id`,
      [leaseMs / 1000, job.id, workerId],
    );
    return rows.length > 0;
  }

  /** A job done: it leaves the queue. */
  async complete(em: EntityManager, job: ClaimedJob, workerId: string): Promise<void> {
    await rawQuery(em, `delete from job where id = ? and locked_by = ?`, [job.id, workerId]);
  }

  /** An attempt failed: the job is queued again after an exponential backoff. */
  async retryLater(em: EntityManager, job: ClaimedJob, workerId: string, error: string): Promise<void> {
    const delay = Math.min(this.opts.retryBaseMs * 2 ** (job.attempts - 1), MAX_BACKOFF_MS);
    await rawQuery(
      em,
      `update job set status = 'queued', locked_by = null, holder = null, locked_until = null, last_error = ?,
         run_at = now() + make_interval(secs => ?), updated_at = now()
       where id = ? and locked_by = ?`,
      [error.slice(0, MAX_ERROR), delay / 1000, job.id, workerId],
    );
  }

  /** Gives up on a job (the dead letter): it stays in the table as `failed`, with its last error. */
  async bury(em: EntityManager, job: ClaimedJob, reason: string): Promise<void> {
    await rawQuery(
      em,
      `update job set status = 'failed', locked_by = null, holder = null, locked_until = null, last_error = ?,
         updated_at = now()
       where id = ?`,
      [reason.slice(0, MAX_ERROR), job.id],
    );
  }

  /** Hands a job back untouched (a worker stopping): queued again, this attempt not counted. */
  async release(em: EntityManager, job: ClaimedJob, workerId: string): Promise<void> {
    await rawQuery(
      em,
      `update job set status = 'queued', attempts = greatest(attempts - 1, 0), locked_by = null,
         holder = null, locked_until = null, run_at = now(), updated_at = now()
       where id = ? and locked_by = ?`,
      [job.id, workerId],
    );
  }

  /** Jobs of `queues` not yet finished (queued, running or waiting to retry). */
  async unfinished(em: EntityManager, queues: readonly string[]): Promise<number> {
    if (!queues.length) return 0;
    const rows = await rawQuery<{ n: number }>(
      em,
      `select count(*)::int as n from job where queue in (?) and status in ('queued', 'running')`,
      [queues.map((q) => this.stored(q))],
    );
    return rows[0].n;
  }

  /** Removes the unfinished jobs whose payload has `key` = `value` (their subject is gone). */
  async discardWhere(
    em: EntityManager,
    queues: readonly string[],
    key: string,
    value: string,
  ): Promise<void> {
    await rawQuery(
      em,
      `delete from job where queue in (?) and status in ('queued', 'running') and payload ->> ? = ?`,
      [queues.map((q) => this.stored(q)), key, value],
    );
  }
}
