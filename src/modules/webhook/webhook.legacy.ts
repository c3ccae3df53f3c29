import type { WebhookDelivery, WebhookSubscription } from './webhook.entity';

/** A subscription on the REST shim; the secret is never part of it (only `create` returns it). */
export function toLegacyWebhook(s: WebhookSubscription) {
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
