import type { RequestContext } from '../../core/context';
import { defineRoute, type Route } from '../../core/rest/route';
import { Checked, MESSAGE, QInt, Type } from '../../core/rest/schema';
import type { WebhookSubscription } from './webhook.entity';
import type { WebhookInput } from './webhook-input';
import { toLegacyDelivery, toLegacyWebhook, WEBHOOK, WEBHOOK_DELIVERY } from './webhook.legacy';

const tag = 'webhooks';
const id = { id: 'the webhook subscription id' };

/** The fields of a subscription a client sends; the service checks them (docs/events.md). */
const WEBHOOK_BODY = Type.Object(
  {
    url: Type.Optional(
      Checked(
        'the http or https URL events are POSTed to: a public address, or one of WEBHOOK_ALLOW_NETWORKS (docs/events.md)',
        { type: 'string' },
      ),
    ),
    description: Type.Optional(Checked('at most 500 characters', { type: ['string', 'null'] })),
    event_types: Type.Optional(
      Checked('event types to deliver (empty or absent: every type)', { type: ['array', 'null'] }),
    ),
    project_id: Type.Optional(
      Checked('only events of this project (slug or MFID)', { type: ['string', 'null'] }),
    ),
    resource_id: Type.Optional(Checked('only events of this resource', { type: ['string', 'null'] })),
    search: Type.Optional(
      Checked(
        'a saved dataset search: keyword, measurement, instrument_name, project_id, metadata conditions',
        { type: ['object', 'null'] },
      ),
    ),
    active: Type.Optional(Checked('false pauses delivery; true resumes it', { type: 'boolean' })),
  },
  { additionalProperties: false, title: 'WebhookInput' },
);

function input(body: unknown): WebhookInput {
  const b = body as Record<string, unknown>;
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

async function legacy(ctx: RequestContext, sub: WebhookSubscription) {
  return toLegacyWebhook(sub, await ctx.services.webhook.skippedCount(ctx, sub));
}

/** Webhook subscriptions and their delivery logs (docs/events.md). */
export const webhookRoutes: Route[] = [
  defineRoute(
    {
      method: 'post',
      path: '/webhooks',
      tag,
      summary: 'Subscribe a URL to events (the signing secret is answered once)',
      body: WEBHOOK_BODY,
      status: 201,
      response: Type.Intersect([
        WEBHOOK,
        Type.Object({ secret: Type.String({ description: 'the signing secret: shown only here' }) }),
      ]),
    },
    async (ctx, { body }) => {
      const { subscription, secret } = await ctx.services.webhook.create(ctx, input(body));
      return { ...(await legacy(ctx, subscription)), secret };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/webhooks',
      tag,
      summary: 'Your webhook subscriptions (every one for platform admins)',
      response: Type.Object({ items: Type.Array(WEBHOOK), total: Type.Integer({ minimum: 0 }) }),
    },
    async (ctx) => {
      const subs = await ctx.services.webhook.list(ctx);
      const items = await Promise.all(subs.map((sub) => legacy(ctx, sub)));
      return { items, total: items.length };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/webhooks/:id',
      tag,
      summary: 'A webhook subscription',
      params: id,
      response: WEBHOOK,
    },
    async (ctx, { params }) => legacy(ctx, await ctx.services.webhook.get(ctx, params.id)),
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/webhooks/:id',
      tag,
      summary: 'Change a webhook subscription (pause, resume, filters, URL)',
      params: id,
      body: WEBHOOK_BODY,
      response: WEBHOOK,
    },
    async (ctx, { params, body }) =>
      legacy(ctx, await ctx.services.webhook.update(ctx, params.id, input(body))),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/webhooks/:id',
      tag,
      summary: 'Delete a webhook subscription and its delivery log',
      params: id,
      response: MESSAGE,
    },
    async (ctx, { params }) => {
      const gone = await ctx.services.webhook.remove(ctx, params.id);
      return { detail: `Webhook ${gone.uniqueId} deleted` };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/webhooks/:id/deliveries',
      tag,
      summary: 'The delivery log of a subscription, newest first (skipped events are only counted)',
      params: id,
      query: { limit: QInt('how many (default 100, at most 1000)', { minimum: 1 }) },
      response: Type.Object({ items: Type.Array(WEBHOOK_DELIVERY) }),
    },
    async (ctx, { params, query }) => {
      const items = await ctx.services.webhook.deliveries(ctx, params.id, Math.min(query.limit ?? 100, 1000));
      return { items: items.map(toLegacyDelivery) };
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/webhooks/:id/deliveries/:did/redeliver',
      tag,
      summary: 'Deliver an event again',
      params: { ...id, did: 'the delivery id (from the delivery log)' },
      response: WEBHOOK_DELIVERY,
    },
    async (ctx, { params }) =>
      toLegacyDelivery(await ctx.services.webhook.redeliver(ctx, params.id, params.did)),
  ),
];
