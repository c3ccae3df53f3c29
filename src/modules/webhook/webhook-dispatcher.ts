import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { ContextFactory } from '../../core/context-factory';
import type { RequestContext } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import type { Config } from '../../core/config';
import type { Logger } from '../../core/logger';
import type { EventRow } from '../event/history.service';
import type { DatasetService } from '../dataset/dataset.service';
import type { ResourceService } from '../resource/resource.service';
import type { RecordReferences } from '../event/record-references';
import { searchFilter, type SavedSearch } from './webhook-input';
import type { ReceiverAddresses } from './receiver-address';
import { postToReceiver } from './receiver-post';
import { sign } from './webhook-signing';

/** The delivery settings (`WEBHOOK_*` in the configuration). */
export type WebhookSettings = Config['webhooks'];

export interface DispatcherDeps {
  orm: MikroORM;
  contexts: ContextFactory;
  resources: ResourceService;
  datasets: DatasetService;
  references: RecordReferences;
  log: Logger;
  settings: WebhookSettings;
  /** where receivers may be (the subscriptions' own check: WebhookService.addresses) */
  addresses: ReceiverAddresses;
}

/** A delivery claimed for sending, with its subscription and its event. */
interface Claimed extends EventRow {
  id: string;
  subscription_id: string;
  attempts: number;
  url: string;
  secret: string;
  owner_id: string;
  sub_resource_id: string | null;
  search: SavedSearch | null;
}

const MAX_BACKOFF_MS = 3_600_000;
const PURGE_EVERY_MS = 3_600_000;

/**
 * Delivers webhooks from the outbox, in the worker role: turns new events into deliveries for
 * the subscriptions they match (fan-out), then posts each due delivery, signed, to its
 * receiver. At-least-once: a delivery is claimed under a lease, so one whose worker died is
 * claimed again. Per subscription and resource only the oldest pending delivery is attempted
 * (order). A delivery is skipped when, at that moment, the subscription's owner may not read
 * the resource or the dataset does not match the saved search. Failures retry with
 * exponential backoff; a long failure streak disables the subscription.
 */
export class WebhookDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private readonly log: Logger;
  private lastPurge = 0;

  constructor(private readonly deps: DispatcherDeps) {
    this.log = deps.log.child({ component: 'webhooks' });
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.drain()
        .catch((err: unknown) => {
          this.log.error({ err }, 'webhook delivery round failed');
        })
        .finally(() => {
          this.running = null;
        });
    }, this.deps.settings.pollIntervalMs);
    this.log.info('webhook dispatcher started');
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Fans out and delivers until nothing is due; returns how many deliveries were attempted. */
  async drain(): Promise<number> {
    let attempted = 0;
    if (Date.now() - this.lastPurge > PURGE_EVERY_MS) await this.purge();
    for (;;) {
      const fanned = await this.fanOut();
      const done = await this.deliverDue();
      attempted += done;
      if (fanned === 0 && done === 0) return attempted;
    }
  }

  /**
   * Retention: deletes the deliveries delivered or skipped more than `retentionDays` ago (their
   * events stay: history is kept until explicitly purged). Answers how many went.
   */
  async purge(): Promise<number> {
    this.lastPurge = Date.now();
    const gone = await rawQuery(
      this.deps.orm.em.fork(),
      `delete from webhook_delivery where status in ('delivered', 'skipped')
         and created_at < now() - make_interval(days => ?) returning 1`,
      [this.deps.settings.retentionDays],
    );
    return gone.length;
  }

  /** Turns a batch of undispatched events into deliveries, in one transaction. */
  async fanOut(): Promise<number> {
    const em = this.deps.orm.em.fork();
    return em.transactional(async (tx) => {
      const rows = await rawQuery<{ id: string }>(
        tx,
        `with batch as (
           select id, event_id, type, occurred_at, resource_id, resource_type, project_mfid from domain_event
           where not dispatched order by id limit 500 for update skip locked
         ), fanned as (
           insert into webhook_delivery (subscription_id, event_seq, event_id, event_type, resource_id)
           select s.unique_id, b.id, b.event_id, b.type, b.resource_id
           from batch b join webhook_subscription s on s.active and s.creation_time <= b.occurred_at
             and (jsonb_array_length(s.event_types) = 0 or s.event_types @> jsonb_build_array(b.type))
             and (s.project_mfid is null or s.project_mfid = b.project_mfid)
             and (s.resource_id is null or s.resource_id = b.resource_id)
             and (s.search is null or b.resource_type = 'dataset')
           order by b.id
           returning 1
         )
         update domain_event set dispatched = true
         where id in (select id from batch) and (select count(*) from fanned) >= 0
         returning id`,
      );
      return rows.length;
    });
  }

  /** Claims the due deliveries (the oldest pending one per subscription and resource) and posts them. */
  async deliverDue(): Promise<number> {
    const { leaseSeconds, concurrency } = this.deps.settings;
    const em = this.deps.orm.em.fork();
    const claimed = await rawQuery<Claimed>(
      em,
      `with due as (
         select d.id from webhook_delivery d
         join webhook_subscription s on s.unique_id = d.subscription_id and s.active
         where d.status = 'pending' and d.next_attempt_at <= now()
           and (d.locked_until is null or d.locked_until < now())
           and not exists (
             select 1 from webhook_delivery e
             where e.subscription_id = d.subscription_id and e.resource_id = d.resource_id
               and e.status = 'pending' and e.event_seq < d.event_seq)
         order by d.event_seq limit ? for update of d skip locked
       ), claimed as (
         update webhook_delivery d set locked_until = now() + make_interval(secs => ?), attempts = attempts + 1
         from due where d.id = due.id
         returning d.id, d.subscription_id, d.attempts, d.event_seq
       )
       select c.id, c.subscription_id, c.attempts, s.url, s.secret, s.owner_id, s.resource_id as sub_resource_id,
              s.search, e.event_id, e.type, e.occurred_at, e.actor_id, e.resource_id, e.resource_type,
              e.project_mfid, e.payload
       from claimed c
       join webhook_subscription s on s.unique_id = c.subscription_id
       join domain_event e on e.id = c.event_seq`,
      [concurrency * 4, leaseSeconds],
    );
    // one resource's deliveries never run side by side: the claim takes one per resource
    for (let i = 0; i < claimed.length; i += concurrency) {
      await Promise.all(claimed.slice(i, i + concurrency).map((d) => this.deliver(em.fork(), d)));
    }
    return claimed.length;
  }

  private async deliver(em: EntityManager, d: Claimed): Promise<void> {
    const audience = await this.audience(d);
    if ('why' in audience) {
      await rawQuery(
        em,
        `update webhook_delivery set status = 'skipped', last_error = ?, locked_until = null where id = ?`,
        [audience.why, d.id],
      );
      return;
    }
    const [{ payload }] = await this.deps.references.readableBy(audience.ctx, [d]);
    const timestamp = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({
      type: d.type,
      timestamp: new Date(d.occurred_at).toISOString(),
      data: {
        event_id: d.event_id,
        resource_id: d.resource_id,
        resource_type: d.resource_type,
        project_mfid: d.project_mfid,
        actor_id: d.actor_id,
        payload,
      },
    });
    let status: number | null = null;
    let error: string | null = null;
    try {
      const headers = {
        'content-type': 'application/json',
        'webhook-id': d.event_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': sign(d.secret, d.event_id, timestamp, body),
      };
      status = await postToReceiver(d.url, headers, body, this.deps.settings.timeoutMs, this.deps.addresses);
      if (status < 200 || status >= 300) error = `the receiver answered ${status}`;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    await em.transactional(async (tx) => {
      if (!error) {
        await rawQuery(
          tx,
          `update webhook_delivery set status = 'delivered', delivered_at = now(), last_status_code = ?,
             last_error = null, locked_until = null where id = ?`,
          [status, d.id],
        );
        // only when there is a streak to end: not one more write of the subscription's row per
        // delivery (10,000 for one batch edit)
        await rawQuery(
          tx,
          'update webhook_subscription set failure_streak = 0 where unique_id = ? and failure_streak <> 0',
          [d.subscription_id],
        );
        return;
      }
      const { maxAttempts, retryBaseMs, disableAfterFailures } = this.deps.settings;
      const giveUp = d.attempts >= maxAttempts;
      const delay = Math.min(retryBaseMs * 2 ** (d.attempts - 1), MAX_BACKOFF_MS);
      await rawQuery(
        tx,
        `update webhook_delivery set status = ?, last_status_code = ?, last_error = ?, locked_until = null,
           next_attempt_at = now() + make_interval(secs => ?) where id = ?`,
        [giveUp ? 'failed' : 'pending', status, error.slice(0, 2000), delay / 1000, d.id],
      );
      await rawQuery(
        tx,
        `update webhook_subscription set failure_streak = failure_streak + 1,
           active = failure_streak + 1 < ?,
           disabled_reason = case when failure_streak + 1 >= ? then ? else disabled_reason end
         where unique_id = ?`,
        [
          disableAfterFailures,
          disableAfterFailures,
          `disabled after ${disableAfterFailures} failed attempts in a row (last: ${error.slice(0, 500)})`,
          d.subscription_id,
        ],
      );
    });
    if (error) this.log.info({ delivery: d.id, url: d.url, error }, 'webhook delivery failed');
  }

  /**
   * The owner of the subscription, as whom the event is told, or why they may not be told about
   * it now. The reason is kept on the skipped delivery, which is counted but never listed: it
   * names no record.
   */
  private async audience(d: Claimed): Promise<{ ctx: RequestContext } | { why: string }> {
    let ctx: RequestContext;
    try {
      ctx = await this.deps.contexts.forUser(d.owner_id, `webhook-${d.id}`);
    } catch {
      return { why: 'the subscription owner no longer exists' };
    }
    const why = await this.refusal(ctx, d);
    return why ? { why } : { ctx };
  }

  /** Why the owner (`ctx`) may not be told about this event now, or null. */
  private async refusal(ctx: RequestContext, d: Claimed): Promise<string | null> {
    if (d.type === 'resource.removed') {
      // nothing left to check against: platform admins, and subscriptions naming the resource
      return ctx.isPlatformAdmin || d.sub_resource_id === d.resource_id
        ? null
        : 'removed resources are announced to platform admins and subscriptions naming them';
    }
    if (d.resource_type === 'user') {
      // an account's sign-ins: to its owner and platform admins (as its history)
      return ctx.userId === d.resource_id || ctx.isPlatformAdmin
        ? null
        : "account events are told to the account's owner and platform admins";
    }
    const exists = await this.deps.resources.detect(ctx.em, d.resource_id);
    // a resource removed since: only platform admins (who read everything) hear about its past
    if (!exists) return ctx.isPlatformAdmin ? null : 'the resource no longer exists';
    try {
      await this.deps.resources.find(ctx, d.resource_id);
    } catch {
      return 'the subscription owner may not read the resource';
    }
    if (d.search && d.resource_type === 'dataset') {
      const n = await this.deps.datasets.count(ctx, searchFilter(d.search, d.resource_id));
      if (n === 0) return 'the dataset does not match the saved search';
    }
    return null;
  }
}
