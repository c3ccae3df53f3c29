import type { RequestContext } from '../../core/context';
import { notFound } from '../../core/errors';
import type { WebhookSubscription } from './webhook.entity';

/**
 * Who may see and change a webhook subscription: its owner and platform admins. Anyone else
 * gets what a missing id gets (404). What a subscription may receive is decided at delivery
 * time by the resource policies, as its owner.
 */
export class WebhookPolicy {
  assertMayManage(ctx: RequestContext, sub: WebhookSubscription | null, id: string): WebhookSubscription {
    if (!sub || (sub.ownerId !== ctx.userId && !ctx.isPlatformAdmin)) throw notFound('Webhook', id);
    return sub;
  }

  /** The owner filter of subscription lists: platform admins see every subscription. */
  visibleWhere(ctx: RequestContext): { ownerId?: string } {
    return ctx.isPlatformAdmin ? {} : { ownerId: ctx.userId };
  }
}
