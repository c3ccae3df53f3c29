import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import type { DatasetService } from '../dataset/dataset.service';
import type { KeywordService } from '../keyword/keyword.service';
import type { MetadataStore } from '../metadata-store/metadata-store';
import type { MetadataDocument } from '../metadata-store/metadata-document';
import type { GrantService } from '../access/grant.service';
import type { EventInput } from '../outbox/domain-event';
import { actorOf, type EventService } from '../outbox/event.service';
import { canonical, type BatchOperation } from './batch-operation';

/** One target's change: its value before and after (see `TargetState.before`). */
export interface BatchItem {
  id: string;
  name: string | null;
  before: unknown;
  after: unknown;
  changes: boolean;
}

/** The owning modules a batch writes through (their `…ManyIn(tx)` methods). */
export interface BatchWriters {
  datasets: DatasetService;
  keywords: KeywordService;
  metadata: MetadataStore;
  grants: GrantService;
  events: EventService;
}

/**
 * Writes the changes of `items` (each to its `after`) and their events, set-based, through the
 * modules owning the tables, inside `tx`; `projects`: each target's project, read with its
 * state (the events carry it, and are not made to look it up again row by row).
 */
export async function writeBatch(
  writers: BatchWriters,
  ctx: RequestContext,
  tx: EntityManager,
  batch: { id: string; op: BatchOperation; undo: boolean },
  items: readonly BatchItem[],
  projects: ReadonlyMap<string, string | null>,
): Promise<void> {
  const { op, undo } = batch;
  const ids = items.map((i) => i.id);
  const actorId = actorOf(ctx);
  const mark = undo ? { batch_id: batch.id, undo: true } : { batch_id: batch.id };
  const events: EventInput[] = [];
  const event = (resourceId: string, type: EventInput['type'], payload: Record<string, unknown>) =>
    events.push({
      type,
      actorId,
      resourceId,
      resourceType: 'dataset',
      projectMfid: projects.get(resourceId),
      payload: { ...payload, ...mark },
    });
  switch (op.kind) {
    case 'add_keyword':
    case 'remove_keyword': {
      const add = (op.kind === 'add_keyword') !== undo;
      if (add) await writers.keywords.addManyIn(tx, ids, op.keyword);
      else await writers.keywords.removeManyIn(tx, ids, op.keyword);
      for (const one of ids) event(one, add ? 'keyword.added' : 'keyword.removed', { keyword: op.keyword });
      break;
    }
    case 'set_field':
      await writers.datasets.setFieldManyIn(
        tx,
        op.field,
        items.map((i) => ({ id: i.id, value: i.after as string | null })),
      );
      for (const i of items)
        event(i.id, 'dataset.updated', { changes: { [op.field]: { from: i.before, to: i.after } } });
      break;
    case 'merge_metadata': {
      const keys = Object.keys(op.metadata);
      // the keys whose value each dataset changes (its event names them; the side-index rows of
      // the others stay as they are)
      const changed = items.map((i) => {
        const from = i.before as Record<string, unknown>;
        const to = i.after as Record<string, unknown>;
        return { id: i.id, keys: keys.filter((k) => canonical(from[k]) !== canonical(to[k])) };
      });
      if (undo) {
        await writers.metadata.restoreKeysManyIn(
          tx,
          keys,
          items.map((i, n) => ({ id: i.id, before: i.after as MetadataDocument, changed: changed[n].keys })),
        );
      } else await writers.metadata.mergeManyIn(tx, 'dataset', changed, op.metadata);
      for (const c of changed) event(c.id, 'metadata.changed', { mode: 'merge', keys: c.keys });
      break;
    }
    case 'grant': {
      const principal = { type: op.principalType, id: op.principalId };
      await writers.grants.setManyIn(
        tx,
        principal,
        items.map((i) => ({ id: i.id, permission: i.after as string | null })),
        ctx.userId,
      );
      for (const i of items) {
        const base = { principal_type: principal.type, principal_id: principal.id };
        if (i.after === null) event(i.id, 'access.revoked', { ...base, permission: i.before });
        else if (i.before === null) event(i.id, 'access.granted', { ...base, permission: i.after });
        else event(i.id, 'access.changed', { ...base, permission: i.after, previous: i.before });
      }
      break;
    }
    case 'set_public': {
      const value = undo ? !op.public : op.public;
      await writers.datasets.ownership.setPublicManyIn(tx, ids, value);
      for (const one of ids) event(one, value ? 'access.public' : 'access.private', {});
      break;
    }
  }
  await writers.events.emitManyIn(tx, events);
}

/** What `op` does to one target. */
export function itemOf(
  op: BatchOperation,
  r: { id: string; name: string | null; before: unknown },
): BatchItem {
  let after: unknown;
  switch (op.kind) {
    case 'add_keyword':
      after = true;
      break;
    case 'remove_keyword':
      after = false;
      break;
    case 'set_field':
      after = op.value;
      break;
    case 'merge_metadata':
      after = op.metadata;
      break;
    case 'grant':
      after = op.permission;
      break;
    case 'set_public':
      after = op.public;
      break;
  }
  return {
    id: r.id,
    name: r.name,
    before: r.before,
    after,
    changes: canonical(r.before) !== canonical(after),
  };
}
