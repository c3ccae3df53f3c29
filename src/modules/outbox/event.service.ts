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

  /**
   * Writes many events inside `em`'s open transaction, a few thousand a statement, in order (a
   * batch edit's per-record events); the project of each is its `projectMfid` when the caller
   * names it (a batch has read its targets' projects already: looking each up again per row was
   * a tenth of a 10,000-dataset batch's time), else its record's, as in {@link emit}.
   */
  async emitManyIn(em: EntityManager, events: readonly EventInput[]): Promise<void> {
    if (!em.isInTransaction()) throw new Error('events emitted outside a transaction');
    for (let start = 0; start < events.length; start += EMIT_CHUNK) {
      const rows = events.slice(start, start + EMIT_CHUNK).map((e, i) => ({
        n: i,
        event_id: newMfid(),
        type: e.type,
        actor_id: e.actorId,
        resource_id: e.resourceId,
        resource_type: e.resourceType,
        named: e.projectMfid !== undefined,
        project_mfid: e.projectMfid ?? null,
        payload: e.payload ?? {},
      }));
      await rawQuery(
        em,
        `insert into domain_event (event_id, type, actor_id, resource_id, resource_type, project_mfid, payload)
         select e.event_id, e.type, e.actor_id, e.resource_id, e.resource_type,
           case when e.named then e.project_mfid else case e.resource_type
             when 'dataset' then (select project_mfid from dataset where unique_id = e.resource_id)
             when 'sample' then (select project_mfid from sample where unique_id = e.resource_id)
             when 'project' then e.resource_id end end,
           e.payload
         from jsonb_to_recordset(?::jsonb) as e(n int, event_id text, type text, actor_id text, resource_id text,
           resource_type text, named boolean, project_mfid text, payload jsonb)
         order by e.n`,
        [JSON.stringify(rows)],
      );
    }
  }
}

/** Events {@link EventService.emitManyIn} writes per statement. */
const EMIT_CHUNK = 5000;

/** The user a context acts for, or null for contexts without a caller (workers). */
export function actorOf(ctx: RequestContext): string | null {
  return ctx.isAuthenticated ? ctx.userId : null;
}
