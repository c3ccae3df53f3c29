import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import { UPDATABLE } from '../dataset/dataset.fields';
import { canonical, type BatchOperation } from './batch-operation';

/**
 * One target as a batch sees it: the columns the permission rules read, and the value the
 * operation reads and writes (`before`): a keyword's presence, a field, the merged top-level
 * keys present, the principal's grant, the public flag; `n`: the keywords or grants it holds
 * (for the caps).
 */
export interface TargetState {
  id: string;
  name: string | null;
  owner_id: string;
  project_mfid: string | null;
  /** the instrument it was recorded with (a bound service account holds contributor through it) */
  instrument_mfid: string | null;
  public: boolean;
  before: unknown;
  n: number;
}

/**
 * Reads the state of `ids` (MFIDs, the caller has checked them) for `op`, in MFID order, in one
 * statement; with `lock`, the dataset rows are locked (`for update`) inside the caller's
 * transaction first, so apply and undo see rows no one changes under them. Reads the keyword,
 * metadata and grant tables directly: a snapshot for comparison only, nothing changes here.
 */
export async function readTargets(
  em: EntityManager,
  op: BatchOperation,
  ids: readonly string[],
  lock: boolean,
): Promise<TargetState[]> {
  let before: string;
  let n = '0';
  const params: unknown[] = [];
  switch (op.kind) {
    case 'add_keyword':
    case 'remove_keyword':
      before = `to_jsonb(exists (select 1 from dataset_keyword dk join keyword k on k.id = dk.keyword_id
                 where dk.dataset_mfid = d.unique_id and lower(k.text) = lower(?)))`;
      n = '(select count(*)::int from dataset_keyword where dataset_mfid = d.unique_id)';
      params.push(op.keyword);
      break;
    case 'set_field':
      before = `coalesce(to_jsonb(d.${UPDATABLE[op.field].wire}), 'null'::jsonb)`;
      break;
    case 'merge_metadata':
      before = `coalesce((select jsonb_object_agg(k, sm.data -> k) from scientific_metadata sm,
                   jsonb_object_keys(?::jsonb) k where sm.resource_id = d.unique_id and jsonb_exists(sm.data, k)),
                 '{}'::jsonb)`;
      params.push(JSON.stringify(op.metadata));
      break;
    case 'grant':
      before = `coalesce((select to_jsonb(g.permission) from access_grant g where g.resource_id = d.unique_id
                   and g.principal_type = ? and g.principal_id = ?), 'null'::jsonb)`;
      n = '(select count(*)::int from access_grant where resource_id = d.unique_id)';
      params.push(op.principalType, op.principalId);
      break;
    case 'set_public':
      before = 'to_jsonb(d.public)';
      break;
  }
  if (lock) {
    // row locks in MFID order: two batches over the same rows queue instead of deadlocking
    await rawQuery(
      em,
      `select 1 from dataset where unique_id in (select jsonb_array_elements_text(?::jsonb))
       order by unique_id for update`,
      [JSON.stringify(ids)],
    );
  }
  return rawQuery<TargetState>(
    em,
    `select d.unique_id as id, d.dataset_name as name, d.owner_id, d.project_mfid, d.instrument_mfid, d.public,
       ${before} as before, ${n} as n
     from dataset d where d.unique_id in (select jsonb_array_elements_text(?::jsonb))
     order by d.unique_id`,
    [...params, JSON.stringify(ids)],
  );
}

/** The digest of the targets' state (a preview's token): any change to it makes apply refuse. */
export function stateDigest(batchId: string, op: BatchOperation, rows: readonly TargetState[]): string {
  const hash = createHash('sha256').update(batchId).update(canonical(op));
  for (const r of rows) {
    hash.update(canonical([r.id, r.owner_id, r.project_mfid, r.instrument_mfid, r.public, r.before, r.n]));
  }
  return hash.digest('base64url');
}
