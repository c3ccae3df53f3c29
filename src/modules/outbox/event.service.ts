import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import { newMfid } from '../../core/ids';
import { sql } from '../../core/db/sql';
import type { EventInput } from './domain-event';

/** The resource types whose table has a `project_mfid` column. */
const OWNED = new Set(['dataset', 'sample']);

/**
 * The one way services record a domain event: a row of the outbox, written through the
 * transaction of the change (DESIGN §12), so the event commits or rolls back with it. Outside
 * a transaction it refuses: an event that could survive a failed change, or a change that could
 * commit without its event, would make history and webhooks lie.
 */
export class EventService {
  /** Writes `event` inside `em`'s open transaction; returns its public id. */
  async emit(em: EntityManager, event: EventInput): Promise<string> {
    if (!em.isInTransaction()) throw new Error(`event ${event.type} emitted outside a transaction`);
    const eventId = newMfid();
    // the project, when the caller did not name it: the resource's own (a project is its own)
    const project =
      event.projectMfid !== undefined
        ? sql('?', event.projectMfid)
        : event.resourceType === 'project'
          ? sql('?', event.resourceId)
          : OWNED.has(event.resourceType)
            ? sql(`(select project_mfid from ${event.resourceType} where unique_id = ?)`, event.resourceId)
            : sql('null');
    await rawQuery(
      em,
      `insert into domain_event (event_id, type, actor_id, resource_id, resource_type, project_mfid, payload)
       values (?, ?, ?, ?, ?, ${project.sql}, ?::jsonb)`,
      [
        eventId,
        event.type,
        event.actorId,
        event.resourceId,
        event.resourceType,
        ...project.params,
        JSON.stringify(event.payload ?? {}),
      ],
    );
    return eventId;
  }
}

/** The user a context acts for, or null for contexts without a caller (workers). */
export function actorOf(ctx: RequestContext): string | null {
  return ctx.isAuthenticated ? ctx.userId : null;
}
