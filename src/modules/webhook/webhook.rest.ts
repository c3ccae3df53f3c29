import type { Request, Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { qInt } from '../../core/rest/params';
import type { WebhookInput } from './webhook.input';
import { toLegacyDelivery, toLegacyWebhook } from './webhook.legacy';

function input(req: Request): WebhookInput {
  const b = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
  return {
    url: b.url,
    description: b.description,
    eventTypes: b.event_types,
    projectId: b.project_id,
    resourceId: b.resource_id,
    search: b.search,
    active: b.active,
  };
}

/** Webhook subscriptions and their delivery logs (docs/events.md). */
export function webhookRoutes(router: Router): void {
  router.post(
    '/webhooks',
    handle(async (ctx, req) => {
      const { subscription, secret } = await ctx.services.webhook.create(ctx, input(req));
      return { ...toLegacyWebhook(subscription), secret };
    }, 201),
  );
  router.get(
    '/webhooks',
    handle(async (ctx) => {
      const items = (await ctx.services.webhook.list(ctx)).map(toLegacyWebhook);
      return { items, total: items.length };
    }),
  );
  router.get(
    '/webhooks/:id',
    handle(async (ctx, req) => toLegacyWebhook(await ctx.services.webhook.get(ctx, param(req, 'id')))),
  );
  router.patch(
    '/webhooks/:id',
    handle(async (ctx, req) =>
      toLegacyWebhook(await ctx.services.webhook.update(ctx, param(req, 'id'), input(req))),
    ),
  );
  router.delete(
    '/webhooks/:id',
    handle(async (ctx, req) => {
      const gone = await ctx.services.webhook.remove(ctx, param(req, 'id'));
      return { detail: `Webhook ${gone.uniqueId} deleted` };
    }),
  );
  router.get(
    '/webhooks/:id/deliveries',
    handle(async (ctx, req) => {
      const limit = qInt(req.query, 'limit', 100, 1, 1000);
      const items = await ctx.services.webhook.deliveries(ctx, param(req, 'id'), limit);
      return { items: items.map(toLegacyDelivery) };
    }),
  );
  router.post(
    '/webhooks/:id/deliveries/:did/redeliver',
    handle(async (ctx, req) =>
      toLegacyDelivery(await ctx.services.webhook.redeliver(ctx, param(req, 'id'), param(req, 'did'))),
    ),
  );
}
