import { Entity, Enum, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

export const JOB_STATUSES = ['queued', 'running', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * A unit of background work on a named queue (the durable queue of DESIGN §1, §7). Workers
 * claim jobs with `FOR UPDATE SKIP LOCKED` and hold them under a lease (`locked_until`) they
 * renew while working; a job whose lease ran out, or whose worker's process is gone (its
 * liveness lock, `holder`, is no longer held), is claimed again. A job that
 * succeeds is deleted; one whose attempts ran out stays as `failed` with its last error (the
 * dead letter).
 */
@Entity({ tableName: 'job' })
@Index({
  name: 'job_queued_idx',
  expression: "create index job_queued_idx on job (queue, run_at, id) where status = 'queued'",
})
@Index({
  name: 'job_running_idx',
  expression: "create index job_running_idx on job (queue, locked_until) where status = 'running'",
})
export class Job {
  [OptionalProps]?: 'status' | 'attempts' | 'runAt' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Property({ length: 100 })
  queue!: string;

  @Property({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Enum({ items: () => JOB_STATUSES, default: 'queued' })
  status: JobStatus = 'queued';

  /** attempts started so far (counted when claimed) */
  @Property({ default: 0 })
  attempts: number = 0;

  @Property()
  maxAttempts!: number;

  /** not claimable before this time (retries back off) */
  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  runAt: Date = new Date();

  /** the worker holding the job while it runs */
  @Property({ length: 100, nullable: true })
  lockedBy?: string | null;

  /** the process holding the job (core/db/liveness.ts): when it is gone, the job is claimable at once */
  @Property({ type: 'integer', nullable: true })
  holder?: number | null;

  /** the lease: past it, another worker may claim the job */
  @Property({ type: 'timestamptz', nullable: true })
  lockedUntil?: Date | null;

  @Property({ type: 'text', nullable: true })
  lastError?: string | null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  updatedAt: Date = new Date();
}
