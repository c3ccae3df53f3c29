import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../logger';
import type { ClaimedJob, JobQueue } from './queue';
import { jobDuration, jobsProcessed, secondsSince } from '../metrics/registry';

/** What consumes one queue. */
export interface JobHandler {
  /**
   * Does the job's work. Throwing schedules another attempt after a backoff, until the attempts
   * run out. Handlers must be idempotent: a job may run again after a worker died mid-job.
   */
  run(job: ClaimedJob, em: EntityManager): Promise<void>;
  /**
   * The job's attempts ran out (its errors, or workers lost while running it): record the
   * outcome where users see it. The job stays in the table as `failed`.
   */
  deadLetter(job: ClaimedJob, reason: string, em: EntityManager): Promise<void>;
}

export interface WorkerOptions {
  orm: MikroORM;
  queue: JobQueue;
  log: Logger;
  concurrency: number;
  pollIntervalMs: number;
  leaseMs: number;
  /** identifies this worker in `locked_by` */
  id?: string;
}

/**
 * Runs the jobs of the registered queues, up to `concurrency` at a time: polls every
 * `pollIntervalMs` when idle, and at once when this process enqueues a job. Each running job's
 * lease is renewed at a third of its length; `stop()` finishes or hands back what is running.
 */
export class JobWorker {
  readonly id: string;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly running = new Map<number, { job: ClaimedJob; done: Promise<void> }>();
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private active = false;
  /** set by halt(): nothing is claimed any more, and a claim already under way hands its jobs back */
  private halted = false;
  private ticking: Promise<void> | null = null;
  private again = false;

  constructor(private readonly opts: WorkerOptions) {
    this.id = opts.id ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  }

  register(queue: string, handler: JobHandler): void {
    this.handlers.set(queue, handler);
  }

  get queues(): string[] {
    return [...this.handlers.keys()];
  }

  /** Starts polling. */
  start(): void {
    if (this.active || this.halted) return;
    this.active = true;
    this.unsubscribe = this.opts.queue.onEnqueued((queue) => {
      if (this.handlers.has(queue)) this.wake();
    });
    this.wake();
    this.opts.log.info(
      { worker: this.id, queues: this.queues, concurrency: this.opts.concurrency },
      'job worker started',
    );
  }

  /** Stops claiming new jobs at once (the first step of shutting down); running ones go on. */
  halt(): void {
    this.halted = true;
    this.active = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Stops claiming, waits up to `graceMs` for the running jobs, then hands the unfinished ones
   * back to the queue (another worker takes them at once, without counting an attempt).
   */
  async stop(graceMs: number): Promise<void> {
    this.halt();
    // a claim under way when halting hands its jobs back itself
    await this.ticking;
    const pending = [...this.running.values()];
    if (!pending.length) return;
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(pending.map((p) => p.done)),
      new Promise((resolve) => (timeout = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(timeout);
    const em = this.opts.orm.em.fork();
    for (const { job } of this.running.values()) {
      await this.opts.queue.release(em, job, this.id).catch((err: unknown) => {
        this.opts.log.error({ err, job: job.id }, 'could not hand a job back; its lease will expire');
      });
      this.opts.log.warn({ job: job.id, queue: job.queue }, 'stopping: job handed back to the queue');
      jobsProcessed.inc({ queue: job.queue, outcome: 'released' });
    }
  }

  /**
   * Runs jobs until the registered queues hold nothing due (tests and the command line);
   * returns how many jobs ran. Jobs waiting for a retry later are not waited for.
   */
  async drain(): Promise<number> {
    let count = 0;
    for (;;) {
      const claimed = await this.claim(this.opts.concurrency - this.running.size);
      count += claimed.length;
      if (!claimed.length && !this.running.size) return count;
      if (this.running.size) await Promise.race([...this.running.values()].map((r) => r.done));
    }
  }

  private wake(): void {
    if (!this.active) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.tick().finally(() => {
      this.ticking = null;
      if (!this.active) return;
      if (this.again) {
        this.again = false;
        this.wake();
      } else {
        this.timer = setTimeout(() => {
          this.wake();
        }, this.opts.pollIntervalMs);
      }
    });
  }

  private async tick(): Promise<void> {
    try {
      const free = this.opts.concurrency - this.running.size;
      const claimed = await this.claim(free);
      // a full batch: there may be more waiting
      if (claimed.length && claimed.length === free) this.again = true;
    } catch (err) {
      this.opts.log.error({ err }, 'could not claim jobs');
    }
  }

  private async claim(limit: number): Promise<ClaimedJob[]> {
    if (limit < 1 || this.halted) return [];
    const em = this.opts.orm.em.fork();
    const jobs = await this.opts.queue.claim(em, this.queues, limit, this.id, this.opts.leaseMs);
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- `halt()` may set it while claim() is awaited
    if (this.halted) {
      // halted while claiming: these were never started
      for (const job of jobs) await this.opts.queue.release(em, job, this.id);
      return [];
    }
    for (const job of jobs) {
      const done = this.execute(job).finally(() => {
        this.running.delete(job.id);
        // a slot is free: look for more work
        if (this.active) this.wake();
      });
      this.running.set(job.id, { job, done });
    }
    return jobs;
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const started = process.hrtime.bigint();
    const outcome = await this.attempt(job);
    jobsProcessed.inc({ queue: job.queue, outcome });
    jobDuration.observe({ queue: job.queue, outcome }, secondsSince(started));
  }

  /** Runs one attempt; returns how it ended. */
  private async attempt(job: ClaimedJob): Promise<'completed' | 'retried' | 'failed'> {
    const handler = this.handlers.get(job.queue);
    if (!handler) throw new Error(`no handler for queue ${job.queue}`); // claim() takes only handled queues
    const em = this.opts.orm.em.fork();
    const log = this.opts.log.child({ job: job.id, queue: job.queue, attempt: job.attempts });
    if (job.attempts > job.maxAttempts) {
      // its workers kept dying mid-job (a lease ran out on the last attempt)
      await this.giveUp(job, handler, em, lostReason(job), job.lastError ?? 'the worker stopped', log);
      return 'failed';
    }
    const heartbeat = setInterval(
      () => {
        this.opts.queue.extend(this.opts.orm.em.fork(), job, this.id, this.opts.leaseMs).then(
          (held) => {
            if (!held) log.warn('lost the lease of a running job (another worker may run it)');
          },
          (err: unknown) => {
            log.warn({ err }, 'could not renew a job lease');
          },
        );
      },
      Math.max(1000, this.opts.leaseMs / 3),
    );
    try {
      await handler.run(job, em);
      await this.opts.queue.complete(em, job, this.id);
      return 'completed';
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (job.attempts >= job.maxAttempts) {
        const reason = `gave up after ${job.attempts} attempt(s): ${message}`;
        await this.giveUp(job, handler, em, reason, message, log);
        return 'failed';
      }
      try {
        await this.opts.queue.retryLater(em, job, this.id, message);
        log.warn({ err }, 'job failed; it will be retried');
      } catch (inner) {
        log.error({ err: inner }, 'could not requeue a failed job; its lease will expire');
      }
      return 'retried';
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * The dead letter: the handler records the outcome first, then the job is kept as `failed`.
   * If recording fails, the job stays claimed until its lease runs out and is given up again.
   */
  private async giveUp(
    job: ClaimedJob,
    handler: JobHandler,
    em: EntityManager,
    reason: string,
    lastError: string,
    log: Logger,
  ): Promise<void> {
    try {
      await handler.deadLetter(job, reason, em);
      await this.opts.queue.bury(em, job, lastError);
      log.error({ reason }, 'job failed for good');
    } catch (err) {
      log.error({ err }, 'could not record a dead job; it is retried once its lease expires');
    }
  }
}

function lostReason(job: ClaimedJob): string {
  const last = job.lastError ? ` (last error: ${job.lastError})` : '';
  return `gave up after ${job.maxAttempts} attempt(s): the worker running it stopped before finishing${last}`;
}
