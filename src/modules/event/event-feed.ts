import type { MikroORM } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import type { Logger } from '../../core/logger';
import type { EventRow } from './history.service';

/** An outbox row with its position. */
export interface FeedRow extends EventRow {
  id: string;
}

interface Listener {
  wants(row: FeedRow): boolean;
  push(row: FeedRow): void;
}

/** Rows read per poll; a busier outbox is read in several polls, in order. */
const POLL_BATCH = 500;
/** How long an id missing below newer ones is waited for (a transaction still committing). */
const GAP_WAIT_MS = 10_000;

/**
 * The live feed of the outbox for this process's subscriptions (GraphQL `resourceEvents`,
 * `ingestionProgress`): one poller reads the events committed since the last poll, whoever
 * wrote them (this replica, another one, a worker), and hands each to the listeners that want
 * it. It polls only while someone listens.
 *
 * Ids are assigned when a transaction inserts and become visible when it commits, so a smaller
 * id can appear after a larger one. The feed reads from the lowest id it may still be missing
 * (`floor`), remembers what it has handed out above it, and gives up on a gap after
 * `GAP_WAIT_MS` (its transaction rolled back, or never committed).
 */
export class EventFeed {
  private orm?: MikroORM;
  private log?: Logger;
  private readonly listeners = new Set<Listener>();
  private timer?: NodeJS.Timeout;
  private polling = false;
  /** the poll under way, for whoever needs it finished */
  private inflight?: Promise<void>;
  /** every id up to here is handed out or given up on */
  private floor?: bigint;
  /** ids above the floor already handed out */
  private readonly seen = new Set<string>();
  /** missing ids above the floor, with when they were first missed */
  private readonly gaps = new Map<string, number>();

  constructor(private readonly intervalMs: number) {}

  /** Starts feeding from the database of `orm` (the application calls this once it is up). */
  attach(orm: MikroORM, log: Logger): void {
    this.orm = orm;
    this.log = log;
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  /**
   * The events committed from now on that `wants` accepts, in id order, until the returned
   * iterator is closed.
   */
  listen(wants: (row: FeedRow) => boolean): AsyncIterableIterator<FeedRow> {
    const queue: FeedRow[] = [];
    let wake: (() => void) | undefined;
    let done = false;
    const listener: Listener = {
      wants,
      push: (row) => {
        queue.push(row);
        wake?.();
      },
    };
    this.listeners.add(listener);
    this.ensurePolling();
    const close = () => {
      done = true;
      this.listeners.delete(listener);
      wake?.();
      if (this.listeners.size === 0) this.stopPolling();
    };
    const iterator: AsyncIterableIterator<FeedRow> = {
      next: async () => {
        while (!done && queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        const row = queue.shift();
        return row && !done ? { value: row, done: false } : { value: undefined, done: true };
      },
      return: () => {
        close();
        return Promise.resolve({ value: undefined, done: true });
      },
      throw: (err: unknown) => {
        close();
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }

  /**
   * {@link listen}, returned once the feed knows where "now" is: a feed that was idle reads the
   * outbox's last id at once (rather than at its first interval), so every event committed after
   * this resolves reaches the listener. A subscription resolves its iterator with this, so an
   * event written right after subscribing is not lost to the first poll's delay.
   */
  async listenFromNow(wants: (row: FeedRow) => boolean): Promise<AsyncIterableIterator<FeedRow>> {
    const iterator = this.listen(wants);
    if (this.floor === undefined) await (this.inflight ?? this.poll());
    // a poll that was already reading may have set no floor (it failed): one more try
    if (this.floor === undefined) await (this.inflight ?? this.poll());
    return iterator;
  }

  /** Whether the feed is polling and knows its position (every listener hears what comes next). */
  get live(): boolean {
    return this.timer !== undefined && this.floor !== undefined;
  }

  stop(): void {
    for (const l of [...this.listeners]) this.listeners.delete(l);
    this.stopPolling();
  }

  private ensurePolling(): void {
    if (this.timer || !this.orm) return;
    this.timer = setInterval(() => void this.poll(), this.intervalMs);
    this.timer.unref();
  }

  private stopPolling(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    // a feed that starts again starts from then, not from where it stopped
    this.floor = undefined;
    this.seen.clear();
    this.gaps.clear();
  }

  /** One read of the outbox (the one under way, if one is). */
  private poll(): Promise<void> {
    if (this.polling || !this.orm) return this.inflight ?? Promise.resolve();
    this.inflight = this.read().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async read(): Promise<void> {
    if (!this.orm) return;
    this.polling = true;
    try {
      const em = this.orm.em.fork();
      if (this.floor === undefined) {
        const [{ max }] = await rawQuery<{ max: string | null }>(
          em,
          'select max(id)::text as max from domain_event',
        );
        this.floor = BigInt(max ?? '0');
        return;
      }
      const rows = await rawQuery<FeedRow>(
        em,
        `select id::text as id, event_id, type, occurred_at, actor_id, resource_id, resource_type, project_mfid, payload
         from domain_event where id > ? order by id limit ?`,
        [this.floor.toString(), POLL_BATCH],
      );
      this.advance(rows);
    } catch (err) {
      this.log?.warn({ err }, 'event feed: reading the outbox failed (it will try again)');
    } finally {
      this.polling = false;
    }
  }

  /** Hands out the new rows and moves the floor past everything handed out or given up on. */
  private advance(rows: FeedRow[]): void {
    if (this.floor === undefined) return;
    const now = Date.now();
    let expected = this.floor + 1n;
    for (const row of rows) {
      const id = BigInt(row.id);
      for (let missing = expected; missing < id; missing++) {
        if (!this.gaps.has(missing.toString())) this.gaps.set(missing.toString(), now);
      }
      expected = id + 1n;
      this.gaps.delete(row.id);
      if (this.seen.has(row.id)) continue;
      this.seen.add(row.id);
      for (const l of this.listeners) if (l.wants(row)) l.push(row);
    }
    for (const [id, since] of this.gaps) if (now - since > GAP_WAIT_MS) this.gaps.delete(id);
    // the floor: just below the lowest id still awaited, else the highest seen
    let floor = this.floor;
    for (;;) {
      const next = (floor + 1n).toString();
      if (this.seen.has(next)) {
        this.seen.delete(next);
        floor++;
      } else if (!this.gaps.has(next) && BigInt(next) < expected) {
        floor++; // given up on
      } else break;
    }
    this.floor = floor;
  }
}
