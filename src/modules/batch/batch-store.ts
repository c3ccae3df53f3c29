import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import { notFound } from '../../core/errors';
import type { BatchItem } from './batch-write';

/**
 * The batch module's own tables, `batch_edit` (one row a batch) and `batch_edit_item` (one row a
 * target: its value before and after, and whether the batch changes it).
 */

export type BatchStatus = 'previewed' | 'applied' | 'undone';

export interface BatchRow {
  id: string;
  actor_id: string;
  operation: Record<string, unknown>;
  target_source: 'ids' | 'search';
  status: BatchStatus;
  token: string;
  target_count: number;
  changed_count: number;
  created_at: Date;
  expires_at: Date;
  applied_at: Date | null;
  undone_at: Date | null;
}

export interface ItemRow {
  dataset_mfid: string;
  before: unknown;
  after: unknown;
  changes: boolean;
}

/** Who may see and act on a batch: its actor, or a platform administrator. */
export interface BatchViewer {
  userId: string;
  isPlatformAdmin: boolean;
}

/**
 * Stores a preview inside `tx` (the actor's previews past their time go as a new one comes):
 * the batch row and its items, a few thousand a statement.
 */
export async function storePreview(
  tx: EntityManager,
  batch: {
    id: string;
    actorId: string;
    operation: Record<string, unknown>;
    source: 'ids' | 'search';
    token: string;
    expiresAt: Date;
  },
  items: readonly BatchItem[],
): Promise<void> {
  const stale = `select id from batch_edit where actor_id = ? and status = 'previewed' and expires_at < now()`;
  await rawQuery(tx, `delete from batch_edit_item where batch_id in (${stale})`, [batch.actorId]);
  await rawQuery(tx, `delete from batch_edit where id in (${stale})`, [batch.actorId]);
  await rawQuery(
    tx,
    `insert into batch_edit (id, actor_id, operation, target_source, status, token, target_count, changed_count, expires_at)
     values (?, ?, ?::jsonb, ?, 'previewed', ?, ?, ?, ?)`,
    [
      batch.id,
      batch.actorId,
      JSON.stringify(batch.operation),
      batch.source,
      batch.token,
      items.length,
      items.filter((i) => i.changes).length,
      batch.expiresAt,
    ],
  );
  for (let start = 0; start < items.length; start += 5000) {
    const chunk = items.slice(start, start + 5000).map((i) => ({
      id: i.id,
      before: i.before,
      after: i.after,
      changes: i.changes,
    }));
    await rawQuery(
      tx,
      `insert into batch_edit_item (batch_id, dataset_mfid, before, after, changes)
       select ?, v.id, v.before, v.after, v.changes
       from jsonb_to_recordset(?::jsonb) as v(id text, before jsonb, after jsonb, changes boolean)`,
      [batch.id, JSON.stringify(chunk)],
    );
  }
}

/** The batch row (locked with `lock`, inside `em`'s transaction) if `viewer` may see it; 404 otherwise. */
export async function batchRow(
  em: EntityManager,
  id: string,
  viewer: BatchViewer | null,
  lock = false,
): Promise<BatchRow> {
  const rows = await rawQuery<BatchRow>(
    em,
    `select * from batch_edit where id = ?${lock ? ' for update' : ''}`,
    [id],
  );
  const row = rows.at(0);
  if (!row || (viewer && row.actor_id !== viewer.userId && !viewer.isPlatformAdmin))
    throw notFound('Batch', id);
  return { ...row, expires_at: new Date(row.expires_at) };
}

/** Marks a batch applied or undone, now. */
export async function markBatch(tx: EntityManager, id: string, status: 'applied' | 'undone'): Promise<void> {
  const at = status === 'applied' ? 'applied_at' : 'undone_at';
  await rawQuery(tx, `update batch_edit set status = ?, ${at} = now() where id = ?`, [status, id]);
}

/** The actor's batches, newest first (previews past their time left out). */
export function batchesOf(em: EntityManager, actorId: string, limit: number): Promise<BatchRow[]> {
  return rawQuery<BatchRow>(
    em,
    `select * from batch_edit where actor_id = ? and (status <> 'previewed' or expires_at >= now())
     order by created_at desc, id desc limit ?`,
    [actorId, limit],
  );
}

/** A batch's items (those it changes, or all) in MFID order after `after`, at most `limit` (all without). */
export function itemRows(
  em: EntityManager,
  id: string,
  opts: { changedOnly: boolean; after?: string; limit?: number },
): Promise<ItemRow[]> {
  return rawQuery<ItemRow>(
    em,
    `select dataset_mfid, before, after, changes from batch_edit_item
     where batch_id = ? and dataset_mfid > ? ${opts.changedOnly ? 'and changes' : ''}
     order by dataset_mfid ${opts.limit === undefined ? '' : 'limit ?'}`,
    [id, opts.after ?? '', ...(opts.limit === undefined ? [] : [opts.limit])],
  );
}

/** The MFIDs of a batch's targets, in MFID order. */
export async function itemIds(em: EntityManager, id: string): Promise<string[]> {
  const rows = await rawQuery<{ dataset_mfid: string }>(
    em,
    'select dataset_mfid from batch_edit_item where batch_id = ? order by dataset_mfid',
    [id],
  );
  return rows.map((r) => r.dataset_mfid);
}
