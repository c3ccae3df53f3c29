import { NullableString, Type } from '../../core/rest/schema';
import type { HistoryEntry } from './history.types';

/** A history entry on the REST shim (snake_case, as the rest of /api/v2). */
export function toLegacyEvent(e: HistoryEntry) {
  return {
    event_id: e.uniqueId,
    type: e.type,
    time: e.time.toISOString(),
    actor_id: e.actorId,
    resource_id: e.resourceId,
    resource_type: e.resourceType,
    project_mfid: e.projectMfid,
    payload: e.payload,
  };
}

export const HISTORY_ENTRY = Type.Object(
  {
    event_id: Type.String(),
    type: Type.String({ description: 'the event type (docs/events.md)' }),
    time: Type.String({ format: 'date-time' }),
    actor_id: NullableString({ description: 'who did it; null for the system' }),
    resource_id: Type.String(),
    resource_type: Type.String(),
    project_mfid: NullableString(),
    payload: Type.Record(Type.String(), Type.Unknown(), { description: 'what changed' }),
  },
  { title: 'HistoryEntry' },
);

export const HISTORY_PAGE = Type.Object({
  items: Type.Array(HISTORY_ENTRY),
  next_cursor: NullableString({ description: 'pass as `cursor` for the next page; null on the last' }),
});
