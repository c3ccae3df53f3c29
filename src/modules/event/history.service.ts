import type { RequestContext } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import { AppError, validationError } from '../../core/errors';
import { decodeCursor, keysetPage, type KeysetPage } from '../../core/pagination';
import type { RecordReferences } from './record-references';
import type { AnyResource } from '../resource/resource.service';
import type { EventPolicy } from './event.policy';

/** A `domain_event` row as stored. */
export interface EventRow {
  event_id: string;
  type: string;
  occurred_at: Date | string;
  actor_id: string | null;
  resource_id: string;
  resource_type: string;
  project_mfid: string | null;
  payload: Record<string, unknown>;
}

/** One entry of a resource's history: a domain event as readers see it. */
export interface HistoryEntry {
  uniqueId: string;
  type: string;
  time: Date;
  actorId: string | null;
  resourceId: string;
  resourceType: string;
  projectMfid: string | null;
  payload: Record<string, unknown>;
}

export function toEntry(row: EventRow): HistoryEntry {
  return {
    uniqueId: row.event_id,
    type: row.type,
    time: new Date(row.occurred_at),
    actorId: row.actor_id,
    resourceId: row.resource_id,
    resourceType: row.resource_type,
    projectMfid: row.project_mfid,
    payload: row.payload,
  };
}

/**
 * The history of a resource: its events, newest first, read from the outbox (append-only; it
 * outlives the resource). Cursors are event ids. A reference in a payload to a dataset or sample
 * the reader may not read (now) is null: the entry stays, the other record's MFID does not show,
 * as links and parents leave such records out.
 */
export class HistoryService {
  constructor(
    readonly policy: EventPolicy,
    private readonly references: RecordReferences,
  ) {}

  /** A page of the history of `id` (live or removed), for those the policy lets read it. */
  async page(
    ctx: RequestContext,
    id: string,
    page: { limit: number; cursor?: string },
  ): Promise<KeysetPage<HistoryEntry>> {
    await this.policy.assertMayReadHistory(ctx, id, async () => (await this.count(ctx, id)) > 0);
    return this.read(ctx, id, page);
  }

  /**
   * A page of the history of a resource the caller reads, or null when they may not read its
   * history (the GraphQL `history` fields).
   */
  async pageOf(
    ctx: RequestContext,
    r: AnyResource,
    page: { limit: number; cursor?: string },
  ): Promise<KeysetPage<HistoryEntry> | null> {
    if (!(await this.policy.mayReadHistoryOf(ctx, r))) return null;
    return this.read(ctx, r.uniqueId, page);
  }

  async count(ctx: RequestContext, id: string): Promise<number> {
    const rows = await rawQuery<{ n: number }>(
      ctx.em,
      'select count(*)::int as n from domain_event where resource_id = ?',
      [id],
    );
    return rows[0].n;
  }

  /**
   * Deletes the events that happened before `before` (platform admins): history is kept until
   * so purged. Events still to be delivered are kept; the delivery logs of those purged go with them. Answers how many went.
   */
  async purge(ctx: RequestContext, before: unknown): Promise<number> {
    this.policy.assertMayPurge(ctx);
    const time = typeof before === 'string' && before.trim() !== '' ? new Date(before) : null;
    if (!time || Number.isNaN(time.getTime()))
      throw validationError('before', 'must be an ISO 8601 date-time');
    const gone = await rawQuery(
      ctx.em,
      `with gone as (
         delete from domain_event where occurred_at < ? and dispatched
           and not exists (select 1 from webhook_delivery d where d.event_seq = domain_event.id and d.status = 'pending')
         returning id
       ), logs as (delete from webhook_delivery where event_seq in (select id from gone) returning 1)
       select 1 from gone`,
      [time],
    );
    return gone.length;
  }

  /**
   * The events of `ids` (event ids) the caller may read, for `node`/`nodes`: an event is readable
   * when the history it belongs to is (the same check as `page`, per resource); references in its
   * payload to records the caller may not read are null, as in the history. Missing and
   * unreadable ids are left out alike.
   */
  async readable(ctx: RequestContext, ids: readonly string[]): Promise<HistoryEntry[]> {
    if (ids.length === 0) return [];
    const rows = await rawQuery<EventRow>(
      ctx.em,
      `select event_id, type, occurred_at, actor_id, resource_id, resource_type, project_mfid, payload
       from domain_event where event_id in (?)`,
      [[...new Set(ids)]],
    );
    // platform admins read every history (assertMayReadHistory): no check per resource
    if (ctx.isPlatformAdmin) return rows.map(toEntry);
    const allowed = new Set<string>();
    for (const resourceId of new Set(rows.map((r) => r.resource_id))) {
      try {
        // an event exists, so the resource's history was recorded
        await this.policy.assertMayReadHistory(ctx, resourceId, () => Promise.resolve(true));
        allowed.add(resourceId);
      } catch (e) {
        if (!(e instanceof AppError) || (e.code !== 'FORBIDDEN' && e.code !== 'NOT_FOUND')) throw e;
      }
    }
    const entries = rows.filter((r) => allowed.has(r.resource_id)).map(toEntry);
    return this.references.readableBy(ctx, entries);
  }

  /** Decodes a cursor given by a REST or GraphQL client. */
  cursor(raw: string | undefined, field: string): string | undefined {
    return decodeCursor(raw, field);
  }

  private async read(
    ctx: RequestContext,
    id: string,
    page: { limit: number; cursor?: string },
  ): Promise<KeysetPage<HistoryEntry>> {
    const rows = await rawQuery<EventRow>(
      ctx.em,
      `select event_id, type, occurred_at, actor_id, resource_id, resource_type, project_mfid, payload
       from domain_event
       where resource_id = ?${page.cursor ? ' and id < (select id from domain_event where event_id = ?)' : ''}
       order by id desc limit ?`,
      page.cursor ? [id, page.cursor, page.limit + 1] : [id, page.limit + 1],
    );
    const entries = rows.map(toEntry);
    return keysetPage(await this.references.readableBy(ctx, entries), page.limit);
  }
}
