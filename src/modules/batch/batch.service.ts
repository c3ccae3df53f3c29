import type { RequestContext } from '../../core/context';
import { AppError, conflict, notFound, validationError } from '../../core/errors';
import { isMfid, newMfid } from '../../core/ids';
import type { DatasetFilter } from '../dataset/dataset.query';
import { DATASET_MAX_KEYWORDS } from '../dataset/dataset.fields';
import type { AccessService } from '../permission/access.service';
import {
  canonical,
  checkOperation,
  storedOperation,
  wireOperation,
  type BatchOperation,
} from './batch-operation';
import { readTargets, stateDigest, type TargetState } from './batch-state';
import { judge, refusal, REFUSED_LISTED, type Judged, type RefusedTarget } from './batch-judge';
import { itemOf, writeBatch, type BatchItem, type BatchWriters } from './batch-write';
import {
  batchesOf,
  itemIds,
  batchRow,
  itemRows,
  markBatch,
  storePreview,
  type BatchRow,
  type BatchStatus,
} from './batch-store';

export type { BatchItem } from './batch-write';
export type { RefusedTarget } from './batch-judge';
export type { BatchStatus } from './batch-store';

/** How long a preview may be applied. */
export const BATCH_PREVIEW_TTL_MS = 60 * 60 * 1000;
/** Targets listed by name in a preview (the rest: `GET …/items`). */
export const BATCH_SAMPLE = 20;

/** A batch as its actor sees it. */
export interface BatchView {
  id: string;
  status: BatchStatus;
  operation: Record<string, unknown>;
  targetSource: 'ids' | 'search';
  targetCount: number;
  changedCount: number;
  /**
   * targets the caller may no longer change (a stored preview read again: a preview with any is
   * refused outright, 403 or 409 naming them, and so is its apply)
   */
  refused: RefusedTarget[];
  refusedCount: number;
  /** the first targets that change, with their values before and after */
  sample: BatchItem[];
  /** the token to apply a preview with (previews only) */
  token: string | null;
  canApply: boolean;
  canUndo: boolean;
  createdAt: Date;
  expiresAt: Date;
  appliedAt: Date | null;
  undoneAt: Date | null;
}

export interface BatchTargets {
  /** dataset MFIDs */
  ids?: unknown;
  /** or every result of this search (the dataset list's filters) */
  search?: DatasetFilter;
}

/**
 * Batch edits of datasets (issue 27, item 5; docs/web-app.md, "Edit many at once"): one
 * operation over a list of datasets or every result of a search. A preview resolves and
 * freezes the targets, says per dataset what changes, and stores the batch with the digest of
 * the state it saw (the token). Apply, with that token, locks every target, checks the
 * permission again on the locked rows and compares the state: all or nothing, in one
 * transaction, set-based, with each dataset's event as a single change writes it. Undo puts
 * back every value the batch changed, unless one has changed since (409).
 */
export class BatchService {
  constructor(private readonly deps: BatchWriters & { access: AccessService; maxTargets: number }) {}

  /** Previews a batch: nothing changes but the stored preview. */
  async preview(ctx: RequestContext, targets: BatchTargets, rawOperation: unknown): Promise<BatchView> {
    const checked = checkOperation(rawOperation, (raw) => this.deps.keywords.normalize(raw));
    let op: BatchOperation;
    if (checked.kind === 'grant') {
      const p = await this.deps.grants.resolvePrincipal(ctx.em, checked.principalType, checked.principal);
      op = {
        kind: 'grant',
        principalType: p.type,
        principalId: p.id,
        principalName: p.name,
        permission: checked.permission,
      };
    } else op = checked;
    const { ids, source } = await this.resolveTargets(ctx, targets);
    const id = newMfid();
    const rows = await readTargets(this.deps, ctx.em, op, ids, false);
    const judged = await judge(this.deps.access, ctx, ctx.em, op, rows);
    // all or nothing: a batch with a dataset the caller may not change is refused as a whole
    if (judged.refusedCount) throw refusal(op, judged, 'nothing was stored or changed');
    const items = rows.map((r) => itemOf(op, r));
    const token = stateDigest(id, op, rows);
    const expiresAt = new Date(Date.now() + BATCH_PREVIEW_TTL_MS);
    await ctx.em.transactional((tx) =>
      storePreview(
        tx,
        { id, actorId: ctx.userId, operation: wireOperation(op), source, token, expiresAt },
        items,
      ),
    );
    return this.view(ctx, await batchRow(ctx.em, id, null), judged);
  }

  /** Applies a preview with its token: all or nothing. */
  async apply(ctx: RequestContext, id: unknown, token: unknown): Promise<BatchView> {
    const batchId = checkId(id);
    if (typeof token !== 'string' || token === '') {
      throw validationError('token', 'is required: the token of the preview being applied');
    }
    await ctx.em.transactional(async (tx) => {
      const batch = await batchRow(tx, batchId, ctx, true);
      if (batch.status !== 'previewed') throw conflict(`Batch ${batchId} is ${batch.status}: preview again`);
      if (batch.token !== token)
        throw conflict(`That is not the token of batch ${batchId}'s preview: preview again`);
      if (batch.expires_at.getTime() < Date.now())
        throw conflict(`Batch ${batchId}'s preview has expired: preview again`);
      const op = storedOperation(batch.operation);
      const ids = await itemIds(tx, batchId);
      const rows = await readTargets(this.deps, tx, op, ids, true);
      const judged = await judge(this.deps.access, ctx, tx, op, rows);
      if (judged.refusedCount) throw refusal(op, judged, 'nothing was applied');
      if (rows.length !== ids.length || stateDigest(batchId, op, rows) !== batch.token) {
        throw conflict(
          `Some of batch ${batchId}'s datasets changed since the preview: nothing was applied; preview again`,
        );
      }
      const changed = rows.map((r) => itemOf(op, r)).filter((i) => i.changes);
      await writeBatch(this.deps, ctx, tx, { id: batchId, op, undo: false }, changed, projectsOf(rows));
      await markBatch(tx, batchId, 'applied');
    });
    ctx.resetScope();
    return this.view(ctx, await batchRow(ctx.em, batchId, null));
  }

  /** Undoes an applied batch as one step; 409 when a value it changed has changed since. */
  async undo(ctx: RequestContext, id: unknown): Promise<BatchView> {
    const batchId = checkId(id);
    await ctx.em.transactional(async (tx) => {
      const batch = await batchRow(tx, batchId, ctx, true);
      if (batch.status !== 'applied')
        throw conflict(`Batch ${batchId} is ${batch.status}: only an applied batch can be undone`);
      const op = storedOperation(batch.operation);
      const items = await itemRows(tx, batchId, { changedOnly: true });
      const rows = await readTargets(
        this.deps,
        tx,
        op,
        items.map((i) => i.dataset_mfid),
        true,
      );
      const judged = await judge(this.deps.access, ctx, tx, op, rows, true);
      if (judged.refusedCount) throw refusal(op, judged, 'nothing was undone');
      const now = new Map(rows.map((r) => [r.id, r]));
      const moved = items.filter((i) => {
        const row = now.get(i.dataset_mfid);
        return !row || canonical(row.before) !== canonical(i.after);
      });
      if (moved.length) {
        throw new AppError(
          'CONFLICT',
          `${moved.length} of batch ${batchId}'s datasets changed since it was applied (${moved
            .slice(0, 10)
            .map((m) => m.dataset_mfid)
            .join(
              ', ',
            )}${moved.length > 10 ? ', …' : ''}): undoing would overwrite those changes, so nothing was undone`,
          moved
            .slice(0, REFUSED_LISTED)
            .map((m) => ({ field: 'datasets', message: `${m.dataset_mfid} changed since` })),
        );
      }
      if (op.kind === 'remove_keyword' && rows.some((r) => r.n >= DATASET_MAX_KEYWORDS)) {
        throw conflict(`Some datasets now carry ${DATASET_MAX_KEYWORDS} keywords: nothing was undone`);
      }
      const back = items.map((i) => ({
        id: i.dataset_mfid,
        name: null,
        before: i.after,
        after: i.before,
        changes: true,
      }));
      await writeBatch(this.deps, ctx, tx, { id: batchId, op, undo: true }, back, projectsOf(rows));
      await markBatch(tx, batchId, 'undone');
    });
    ctx.resetScope();
    return this.view(ctx, await batchRow(ctx.em, batchId, null));
  }

  /** One of the caller's batches (any caller's for a platform administrator); 404 otherwise. */
  async get(ctx: RequestContext, id: unknown): Promise<BatchView> {
    return this.view(ctx, await batchRow(ctx.em, checkId(id), ctx));
  }

  /** The caller's batches, newest first (previews past their time left out). */
  async list(ctx: RequestContext, limit: number): Promise<BatchView[]> {
    const rows = await batchesOf(ctx.em, ctx.userId, limit);
    return Promise.all(rows.map((r) => this.view(ctx, r, undefined, false)));
  }

  /**
   * A page of a batch's targets the caller may still read (those it changes, or all), in MFID
   * order after `after`.
   */
  async items(
    ctx: RequestContext,
    id: unknown,
    opts: { after?: string; limit: number; changedOnly: boolean },
  ): Promise<{ items: BatchItem[]; nextCursor: string | null }> {
    const batch = await batchRow(ctx.em, checkId(id), ctx);
    const page: BatchItem[] = [];
    let after = opts.after;
    // the items in MFID order, those of datasets the caller may no longer read left out
    for (;;) {
      const rows = await itemRows(ctx.em, batch.id, {
        changedOnly: opts.changedOnly,
        after,
        limit: opts.limit + 1,
      });
      const names = await this.deps.datasets.readableNames(
        ctx,
        rows.map((r) => r.dataset_mfid),
      );
      for (const r of rows) {
        if (!names.has(r.dataset_mfid)) continue;
        const item = {
          id: r.dataset_mfid,
          name: names.get(r.dataset_mfid) ?? null,
          before: r.before,
          after: r.after,
        };
        page.push({ ...item, changes: r.changes });
      }
      if (page.length > opts.limit || rows.length <= opts.limit) break;
      after = rows[rows.length - 1].dataset_mfid;
    }
    const items = page.slice(0, opts.limit);
    return { items, nextCursor: page.length > opts.limit ? items[items.length - 1].id : null };
  }

  /** The targets' MFIDs: a list every one of which the caller may read, or a search's results. */
  private async resolveTargets(
    ctx: RequestContext,
    targets: BatchTargets,
  ): Promise<{ ids: string[]; source: 'ids' | 'search' }> {
    const max = this.deps.maxTargets;
    if ((targets.ids === undefined || targets.ids === null) === (targets.search === undefined)) {
      throw validationError(
        'dataset_ids',
        'give either the datasets (dataset_ids) or a search (search), not both',
      );
    }
    if (targets.search !== undefined) {
      const ids = await this.deps.datasets.readableIds(ctx, targets.search, max + 1);
      if (ids.length > max) {
        throw validationError(
          'search',
          `matches more than ${max} datasets, the most a batch may change: narrow the search`,
        );
      }
      if (!ids.length) throw validationError('search', 'matches no dataset you may read');
      return { ids: ids.sort(), source: 'search' };
    }
    if (!Array.isArray(targets.ids)) throw validationError('dataset_ids', 'must be a list of dataset MFIDs');
    if (targets.ids.length > max) {
      throw validationError(
        'dataset_ids',
        `lists ${targets.ids.length} datasets: a batch changes at most ${max}`,
      );
    }
    if (!targets.ids.length) throw validationError('dataset_ids', 'must name at least one dataset');
    const ids = [...new Set(targets.ids as unknown[])];
    for (const one of ids) {
      if (typeof one !== 'string' || !isMfid(one)) throw notFound('Dataset', String(one));
    }
    const readable = await this.deps.datasets.readableNames(ctx, ids as string[]);
    // a dataset the caller may not read is answered exactly as one that does not exist
    const missing = (ids as string[]).find((one) => !readable.has(one));
    if (missing) throw notFound('Dataset', missing);
    return { ids: (ids as string[]).sort(), source: 'ids' };
  }

  private async view(
    ctx: RequestContext,
    row: BatchRow,
    judged?: Judged,
    withSample = true,
  ): Promise<BatchView> {
    const expiresAt = new Date(row.expires_at);
    if (!judged && row.status === 'previewed' && withSample) {
      const op = storedOperation(row.operation);
      const ids = await itemIds(ctx.em, row.id);
      judged = await judge(
        this.deps.access,
        ctx,
        ctx.em,
        op,
        await readTargets(this.deps, ctx.em, op, ids, false),
      );
    }
    const sample = withSample
      ? (await this.items(ctx, row.id, { limit: BATCH_SAMPLE, changedOnly: true })).items
      : [];
    const refusedCount = judged?.refusedCount ?? 0;
    return {
      id: row.id,
      status: row.status,
      operation: row.operation,
      targetSource: row.target_source,
      targetCount: row.target_count,
      changedCount: row.changed_count,
      refused: judged?.refused ?? [],
      refusedCount,
      sample,
      token: row.status === 'previewed' ? row.token : null,
      canApply: row.status === 'previewed' && refusedCount === 0 && expiresAt.getTime() >= Date.now(),
      canUndo: row.status === 'applied',
      createdAt: new Date(row.created_at),
      expiresAt,
      appliedAt: row.applied_at ? new Date(row.applied_at) : null,
      undoneAt: row.undone_at ? new Date(row.undone_at) : null,
    };
  }
}

/** Each target's project, as its state was read. */
function projectsOf(rows: readonly TargetState[]): Map<string, string | null> {
  return new Map(rows.map((r) => [r.id, r.project_mfid]));
}

function checkId(id: unknown): string {
  if (typeof id !== 'string' || !isMfid(id)) throw notFound('Batch', String(id));
  return id;
}
