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
