import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import type { RequestContext } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import { assertNoProblems, notFound, type FieldProblem } from '../../core/errors';
import { isMfid, newMfid } from '../../core/ids';
import type { ProjectService } from '../project/project.service';
import type { ResourceService } from '../resource/resource.service';
import { WebhookDelivery, WebhookSubscription } from './webhook.entity';
import type { WebhookPolicy } from './webhook.policy';
import type { ReceiverAddresses } from './receiver-address';
import { checkDescription, checkEventTypes, checkSearch, checkUrl, type WebhookInput } from './webhook-input';
import { newSecret } from './webhook-signing';

export interface WebhookDeps {
  resources: ResourceService;
  projects: ProjectService;
  policy: WebhookPolicy;
  /** where receivers may be (public addresses and WEBHOOK_ALLOW_NETWORKS) */
  addresses: ReceiverAddresses;
}

/**
 * The deliveries of a subscription its log shows: those with an outcome (a response code or an
 * error), so attempted after the dispatcher found the resource readable by the subscription's
 * owner, and not skipped. A skipped one (not readable then) is only counted, and one not
 * attempted yet has not been checked: neither names its resource anywhere.
 */
function listed(subscriptionId: string): FilterQuery<WebhookDelivery> {
  return {
    subscriptionId,
    status: { $ne: 'skipped' },
    $or: [{ lastStatusCode: { $ne: null } }, { lastError: { $ne: null } }],
  };
}

/** The skipped deliveries of subscriptions, by subscription id, one statement per batch. */
function skippedLoader(em: EntityManager): DataLoader<string, number> {
  return new DataLoader<string, number>(async (ids) => {
    const rows = await rawQuery<{ subscription_id: string; n: number }>(
      em,
      `select subscription_id, count(*)::int as n from webhook_delivery
       where subscription_id in (?) and status = 'skipped' group by subscription_id`,
      [[...ids]],
    );
    const counts = new Map(rows.map((r) => [r.subscription_id, r.n]));
    return ids.map((id) => counts.get(id) ?? 0);
  });
}

/**
 * Webhook subscriptions and their delivery logs: created by any user for what they may read
 * (a resource they name must be readable now; what is delivered is checked again at delivery
 * time), seen and changed by their owner and platform admins. The secret is returned once, by
 * `create`. Events skipped because the owner could not read their resource are counted, never
 * listed (see `listed`).
 */
export class WebhookService {
  readonly policy: WebhookPolicy;
  /** where receivers may be: checked here at subscription, and by the dispatcher at delivery */
  readonly addresses: ReceiverAddresses;

  constructor(private readonly deps: WebhookDeps) {
    this.policy = deps.policy;
    this.addresses = deps.addresses;
  }

  async create(
    ctx: RequestContext,
    input: WebhookInput,
  ): Promise<{ subscription: WebhookSubscription; secret: string }> {
    const problems: FieldProblem[] = [];
    const url = checkUrl(input.url, problems, this.deps.addresses);
    const eventTypes = checkEventTypes(input.eventTypes, problems);
    const description = checkDescription(input.description, problems);
    if (input.projectId !== undefined && input.projectId !== null && typeof input.projectId !== 'string') {
      problems.push({ field: 'project_id', message: 'must be a project id or MFID' });
    }
    if (input.resourceId !== undefined && input.resourceId !== null && typeof input.resourceId !== 'string') {
      problems.push({ field: 'resource_id', message: 'must be an MFID' });
    }
    assertNoProblems(problems);
    // both are defined once there are no problems
    if (url === undefined || eventTypes === undefined)
      throw new Error('webhook input checked without values');
    const search = checkSearch(input.search);
    const projectRef = typeof input.projectId === 'string' ? input.projectId : null;
    const project = projectRef ? await this.deps.projects.get(ctx, projectRef) : null;
    const resource =
      typeof input.resourceId === 'string' ? await this.deps.resources.find(ctx, input.resourceId) : null;
    const secret = newSecret();
    const subscription = ctx.em.create(WebhookSubscription, {
      uniqueId: newMfid(),
      ownerId: ctx.userId,
      url,
      secret,
      description: description ?? null,
      eventTypes,
      projectMfid: project?.uniqueId ?? null,
      resourceId: resource?.uniqueId ?? null,
      search: search ? { ...search } : null,
    });
    await ctx.em.flush();
    return { subscription, secret };
  }

  list(ctx: RequestContext): Promise<WebhookSubscription[]> {
    return ctx.em.find(WebhookSubscription, this.policy.visibleWhere(ctx), { orderBy: { uniqueId: 'desc' } });
  }

  /** The subscriptions of these MFIDs the caller may manage (as `get`), in one statement. */
  readable(ctx: RequestContext, ids: readonly string[]): Promise<WebhookSubscription[]> {
    const wanted = ids.filter(isMfid);
    if (!wanted.length) return Promise.resolve([]);
    return ctx.em.find(WebhookSubscription, { uniqueId: { $in: wanted }, ...this.policy.visibleWhere(ctx) });
  }

  async get(ctx: RequestContext, id: string): Promise<WebhookSubscription> {
    const sub = isMfid(id) ? await ctx.em.findOne(WebhookSubscription, { uniqueId: id }) : null;
    return this.policy.assertMayManage(ctx, sub, id);
  }

  /** Changes the URL, description, event types or active flag; reactivating clears the failure streak. */
  async update(ctx: RequestContext, id: string, input: WebhookInput): Promise<WebhookSubscription> {
    const sub = await this.get(ctx, id);
    const problems: FieldProblem[] = [];
    const url = input.url !== undefined ? checkUrl(input.url, problems, this.deps.addresses) : undefined;
    const eventTypes =
      input.eventTypes !== undefined ? checkEventTypes(input.eventTypes, problems) : undefined;
    const description =
      input.description !== undefined ? checkDescription(input.description, problems) : undefined;
    if (input.active !== undefined && typeof input.active !== 'boolean') {
      problems.push({ field: 'active', message: 'must be true or false' });
    }
    for (const fixed of ['projectId', 'resourceId', 'search'] as const) {
      if (input[fixed] !== undefined)
        problems.push({ field: fixed, message: 'is fixed: create another subscription' });
    }
    assertNoProblems(problems);
    if (url !== undefined) sub.url = url;
    if (eventTypes !== undefined) sub.eventTypes = eventTypes;
    if (description !== undefined) sub.description = description;
    if (typeof input.active === 'boolean') {
      if (input.active && !sub.active) {
        sub.failureStreak = 0;
        sub.disabledReason = null;
      }
      sub.active = input.active;
    }
    await ctx.em.flush();
    return sub;
  }

  /** Deletes a subscription and its delivery log. */
  async remove(ctx: RequestContext, id: string): Promise<WebhookSubscription> {
    const sub = await this.get(ctx, id);
    await ctx.em.transactional(async (tx) => {
      await tx.nativeDelete(WebhookDelivery, { subscriptionId: sub.uniqueId });
      await tx.nativeDelete(WebhookSubscription, { uniqueId: sub.uniqueId });
    });
    return sub;
  }

  /** The delivery log of a subscription (skipped deliveries left out), newest first. */
  async deliveries(ctx: RequestContext, id: string, limit: number): Promise<WebhookDelivery[]> {
    const sub = await this.get(ctx, id);
    return ctx.em.find(WebhookDelivery, listed(sub.uniqueId), { orderBy: { id: 'desc' }, limit });
  }

  /**
   * The deliveries of these ids that the logs of subscriptions the caller may manage list (as
   * `deliveries`), in one statement.
   */
  async readableDeliveries(ctx: RequestContext, ids: readonly string[]): Promise<WebhookDelivery[]> {
    if (!ids.length) return [];
    const owner = this.policy.visibleWhere(ctx).ownerId;
    const rows = await rawQuery<Record<string, unknown>>(
      ctx.em,
      `select w.* from webhook_delivery w join webhook_subscription s on s.unique_id = w.subscription_id
       where w.id in (?) and w.status <> 'skipped' and (w.last_status_code is not null or w.last_error is not null)
       ${owner === undefined ? '' : 'and s.owner_id = ?'}`,
      owner === undefined ? [[...ids]] : [[...ids], owner],
    );
    return rows.map((row) => ctx.em.map(WebhookDelivery, row));
  }

  /**
   * How many deliveries of a subscription its log holds as skipped (for the retention of the
   * log): its owner could not read the event's resource when it was due. Batched: the
   * subscriptions of one request share one statement.
   */
  async skippedCount(ctx: RequestContext, sub: WebhookSubscription): Promise<number> {
    const loader = await ctx.memo('webhook.skipped', () => Promise.resolve(skippedLoader(ctx.em)));
    return loader.load(sub.uniqueId);
  }

  /**
   * Delivers an event of the log again (whatever its status), as soon as a worker gets to it; a
   * delivery the log does not list (skipped, or not attempted yet) is not found.
   */
  async redeliver(ctx: RequestContext, id: string, deliveryId: string): Promise<WebhookDelivery> {
    const sub = await this.get(ctx, id);
    const delivery = /^\d{1,18}$/.test(deliveryId)
      ? await ctx.em.findOne(WebhookDelivery, { $and: [listed(sub.uniqueId), { id: deliveryId }] })
      : null;
    if (!delivery) throw notFound('Delivery', deliveryId);
    Object.assign(delivery, { status: 'pending', nextAttemptAt: new Date(), lockedUntil: null });
    await ctx.em.flush();
    return delivery;
  }
}
