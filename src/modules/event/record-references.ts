import type { RequestContext } from '../../core/context';
import { runSql } from '../../core/db/raw';
import { and, inList } from '../../core/db/sql';
import type { AccessService } from '../permission/access.service';

/**
 * The payload keys that name another dataset or sample, by event type (docs/events.md): what a
 * reader sees of them depends on whether they may read that record.
 */
const RECORD_REFERENCES: Readonly<Partial<Record<string, readonly string[]>>> = {
  'link.added': ['parent_id', 'child_id'],
  'link.removed': ['parent_id', 'child_id'],
};

/** What an event is, as far as its references go: history entries, feed rows, deliveries. */
export interface Referencing {
  type: string;
  payload: Record<string, unknown>;
}

/** The records an event's payload names, by payload key. */
function referencesOf(e: Referencing): [key: string, id: string][] {
  return (RECORD_REFERENCES[e.type] ?? []).flatMap((key) => {
    const id = e.payload[key];
    return typeof id === 'string' ? [[key, id] as [string, string]] : [];
  });
}

/**
 * Events as one reader may see them: a reference in a payload to a dataset or sample the reader
 * may not read (now) is null; the event stays, the other record's MFID does not show, as links
 * and parents leave such records out. History, GraphQL subscriptions and webhook deliveries
 * (for the subscription's owner) all pass their events through it.
 */
export class RecordReferences {
  constructor(private readonly access: AccessService) {}

  /** `events` with their unreadable references set to null; one statement for all of them (none for platform admins). */
  async readableBy<T extends Referencing>(ctx: RequestContext, events: T[]): Promise<T[]> {
    const referenced = new Set(events.flatMap((e) => referencesOf(e).map(([, id]) => id)));
    if (referenced.size === 0) return events;
    const [d, s] = await Promise.all([
      this.access.readableCondition(ctx, 'dataset', 'd'),
      this.access.readableCondition(ctx, 'sample', 's'),
    ]);
    if (!d && !s) return events;
    const ids = [...referenced];
    const datasets = and(inList('d.unique_id', ids), d);
    const samples = and(inList('s.unique_id', ids), s);
    const readable = new Set(
      (
        await runSql<{ unique_id: string }>(ctx.em, {
          sql: `select d.unique_id from dataset d where ${datasets.sql}
                union all select s.unique_id from sample s where ${samples.sql}`,
          params: [...datasets.params, ...samples.params],
        })
      ).map((r) => r.unique_id),
    );
    return events.map((e) => {
      const hidden = referencesOf(e).filter(([, id]) => !readable.has(id));
      if (hidden.length === 0) return e;
      const payload = { ...e.payload };
      for (const [key] of hidden) payload[key] = null;
      return { ...e, payload };
    });
  }
}
