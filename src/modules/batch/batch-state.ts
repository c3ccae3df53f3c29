import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { DatasetService } from '../dataset/dataset.service';
import type { KeywordService } from '../keyword/keyword.service';
import type { MetadataStore } from '../metadata-store/metadata-store';
import type { GrantService } from '../access/grant.service';
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

/** The owning modules a batch reads its targets' state through. */
export interface TargetReaders {
  datasets: DatasetService;
  keywords: KeywordService;
  metadata: MetadataStore;
  grants: GrantService;
}

/**
 * Reads the state of `ids` (MFIDs, the caller has checked them) for `op`, in MFID order,
 * through the modules owning each table (the datasets, then the keyword, metadata or grant
 * rows: one set-based statement each); with `lock`, the dataset rows are locked (`for update`)
 * inside the caller's transaction first, so apply and undo see rows no one changes under them.
 */
export async function readTargets(
  readers: TargetReaders,
  em: EntityManager,
  op: BatchOperation,
  ids: readonly string[],
  lock: boolean,
): Promise<TargetState[]> {
  const field = op.kind === 'set_field' ? op.field : op.kind === 'set_public' ? 'public' : undefined;
  const rows = await readers.datasets.targetsIn(em, ids, { lock, field });
  const found = rows.map((r) => r.id);
  let state: (id: string) => { before: unknown; n: number } = () => ({ before: null, n: 0 });
  switch (op.kind) {
    case 'add_keyword':
    case 'remove_keyword': {
      const has = await readers.keywords.presenceManyIn(em, found, op.keyword);
      state = (id) => ({ before: has.get(id)?.has ?? false, n: has.get(id)?.n ?? 0 });
      break;
    }
    case 'merge_metadata': {
      const docs = await readers.metadata.keysManyIn(em, found, Object.keys(op.metadata));
      state = (id) => ({ before: docs.get(id) ?? {}, n: 0 });
      break;
    }
    case 'grant': {
      const principal = { type: op.principalType, id: op.principalId };
      const grants = await readers.grants.principalManyIn(em, principal, found);
      state = (id) => ({ before: grants.get(id)?.permission ?? null, n: grants.get(id)?.n ?? 0 });
      break;
    }
  }
  return rows.map((r) => {
    const own = field === undefined ? state(r.id) : { before: r.value, n: 0 };
    return {
      id: r.id,
      name: r.name,
      owner_id: r.owner_id,
      project_mfid: r.project_mfid,
      instrument_mfid: r.instrument_mfid,
      public: r.public,
      ...own,
    };
  });
}

/** The digest of the targets' state (a preview's token): any change to it makes apply refuse. */
export function stateDigest(batchId: string, op: BatchOperation, rows: readonly TargetState[]): string {
  const hash = createHash('sha256').update(batchId).update(canonical(op));
  for (const r of rows) {
    hash.update(canonical([r.id, r.owner_id, r.project_mfid, r.instrument_mfid, r.public, r.before, r.n]));
  }
  return hash.digest('base64url');
}
