/** Every domain event type, grouped by what changed (docs/events.md describes their payloads). */
export const EVENT_TYPES = [
  'dataset.created',
  'dataset.updated',
  'sample.created',
  'sample.updated',
  'metadata.changed',
  'keyword.added',
  'keyword.removed',
  'link.added',
  'link.removed',
  'file.added',
  'file.removed',
  'file.storage_path_set',
  'file.updated',
  'ingestion.requested',
  'ingestion.started',
  'ingestion.progress',
  'ingestion.complete',
  'ingestion.failed',
  'ingestion.not_supported',
  'ingestion.not_requested',
  'access.granted',
  'access.changed',
  'access.revoked',
  'access.public',
  'access.private',
  'ownership.transferred',
  'project.reassigned',
  'project.members_changed',
  'deletion.requested',
  'deletion.approved',
  'deletion.rejected',
  'deletion.withdrawn',
  'metadata.restored',
  'resource.removed',
  'publication.created',
  'publication.updated',
  'publication.published',
  'publication.withdrawn',
  'account.signed_in',
  'account.signed_out',
  'account.sign_in_failed',
  'account.identity_linked',
  'account.api_key_created',
  'account.api_key_revoked',
  'account.elevated',
  'account.elevation_dropped',
  'account.sessions_ended',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What a service says about one change; the event module adds the id and the time. */
export interface EventInput {
  type: EventType;
  /** who caused it; null for the service itself */
  actorId: string | null;
  resourceId: string;
  resourceType: string;
  projectMfid?: string | null;
  payload?: Record<string, unknown>;
}

/** A field-level change: the value before and after. */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

/** The fields whose values differ between `before` and `after` (compared as JSON). */
export function fieldChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const key of Object.keys(after)) {
    const from = before[key] ?? null;
    const to = after[key] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[key] = { from, to };
  }
  return changes;
}
