import { NullableString, Type } from '../../core/rest/schema';
import type { WebhookDelivery, WebhookSubscription } from './webhook.entity';

/**
 * A subscription on the REST shim, with how many of its deliveries were skipped; the secret is
 * never part of it (only `create` returns it).
 */
export function toLegacyWebhook(s: WebhookSubscription, skippedCount: number) {
  return {
    unique_id: s.uniqueId,
    owner_id: s.ownerId,
    url: s.url,
    description: s.description ?? null,
    event_types: s.eventTypes,
    project_mfid: s.projectMfid ?? null,
    resource_id: s.resourceId ?? null,
    search: s.search ?? null,
    active: s.active,
    failure_streak: s.failureStreak,
    disabled_reason: s.disabledReason ?? null,
    skipped_count: skippedCount,
    creation_time: s.creationTime.toISOString(),
  };
}

export function toLegacyDelivery(d: WebhookDelivery) {
  return {
    id: Number(d.id),
    event_id: d.eventId,
    event_type: d.eventType,
    resource_id: d.resourceId,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.lastStatusCode ?? null,
    last_error: d.lastError ?? null,
    next_attempt_at: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
    delivered_at: d.deliveredAt ? d.deliveredAt.toISOString() : null,
    created_at: d.createdAt.toISOString(),
  };
}

const nullable = NullableString();
export const WEBHOOK = Type.Object(
  {
    unique_id: Type.String(),
    owner_id: Type.String(),
    url: Type.String(),
    description: nullable,
    event_types: Type.Array(Type.String(), { description: 'empty: every type' }),
    project_mfid: nullable,
    resource_id: nullable,
    search: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
      description: 'the saved dataset search, or null',
    }),
    active: Type.Boolean(),
    failure_streak: Type.Integer({ minimum: 0 }),
    disabled_reason: nullable,
    skipped_count: Type.Integer({
      minimum: 0,
      description:
        'events not delivered because the owner could not read their resource when they were due; the delivery log does not list them',
    }),
    creation_time: Type.String({ format: 'date-time' }),
  },
  { title: 'Webhook' },
);

export const WEBHOOK_DELIVERY = Type.Object(
  {
    id: Type.Integer(),
    event_id: Type.String(),
    event_type: Type.String(),
    resource_id: Type.String(),
    status: Type.String({ description: 'pending, delivered or failed' }),
    attempts: Type.Integer({ minimum: 0 }),
    last_status_code: Type.Union([Type.Integer(), Type.Null()]),
    last_error: nullable,
    next_attempt_at: nullable,
    delivered_at: nullable,
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'WebhookDelivery' },
);
