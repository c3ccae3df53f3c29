import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import { AppError, conflict, notFound, validationError } from '../../core/errors';
import { isMfid, newMfid } from '../../core/ids';
import type { DatasetService } from '../dataset/dataset.service';
import type { DatasetFilter } from '../dataset/dataset.query';
import { DATASET_MAX_KEYWORDS } from '../dataset/dataset.fields';
import type { KeywordService } from '../keyword/keyword.service';
import type { MetadataStore } from '../metadata-store/metadata-store';
import type { MetadataDocument } from '../metadata-store/metadata-document';
import { RESOURCE_MAX_GRANTS, type GrantService } from '../access/grant.service';
import type { AccessService } from '../permission/access.service';
import { allows, ACTION_LEVEL, type Permission } from '../permission/permission';
import type { EventInput } from '../outbox/domain-event';
import { actorOf, type EventService } from '../outbox/event.service';
import {
  BATCH_ACTION,
  canonical,
  checkOperation,
  storedOperation,
  wireOperation,
  type BatchOperation,
} from './batch-operation';
import { readTargets, stateDigest, type TargetState } from './batch-state';

/** How long a preview may be applied. */
export const BATCH_PREVIEW_TTL_MS = 60 * 60 * 1000;
/** Targets listed by name in a preview (the rest: `GET …/items`). */
export const BATCH_SAMPLE = 20;
/** Refused targets named in a preview and in a refusal. */
const REFUSED_LISTED = 100;

export type BatchStatus = 'previewed' | 'applied' | 'undone';

/** One target's change: its value before and after (see `TargetState.before`). */
export interface BatchItem {
  id: string;
  name: string | null;
  before: unknown;
  after: unknown;
  changes: boolean;
}

/** A target the caller may not change this way, and why. */
export interface RefusedTarget {
  id: string;
  name: string | null;
  reason: string;
}

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

interface BatchRow {
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

interface ItemRow {
  dataset_mfid: string;
  before: unknown;
  after: unknown;
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
  constructor(
    private readonly deps: {
      datasets: DatasetService;
      keywords: KeywordService;
      metadata: MetadataStore;
      grants: GrantService;
      access: AccessService;
      events: EventService;
      maxTargets: number;
    },
  ) {}

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
    const rows = await readTargets(ctx.em, op, ids, false);
    const judged = await this.judge(ctx, ctx.em, op, rows);
    // all or nothing: a batch with a dataset the caller may not change is refused as a whole
    if (judged.refusedCount) throw refusal(op, judged, 'nothing was stored or changed');
    const items = rows.map((r) => itemOf(op, r));
    const token = stateDigest(id, op, rows);
    const expiresAt = new Date(Date.now() + BATCH_PREVIEW_TTL_MS);
    await ctx.em.transactional(async (tx) => {
      // previews of this caller past their time go as a new one comes
      await rawQuery(
        tx,
        `delete from batch_edit_item where batch_id in
           (select id from batch_edit where actor_id = ? and status = 'previewed' and expires_at < now())`,
        [ctx.userId],
      );
      await rawQuery(
        tx,
        `delete from batch_edit where actor_id = ? and status = 'previewed' and expires_at < now()`,
        [ctx.userId],
      );
      await rawQuery(
        tx,
        `insert into batch_edit (id, actor_id, operation, target_source, status, token, target_count, changed_count, expires_at)
         values (?, ?, ?::jsonb, ?, 'previewed', ?, ?, ?, ?)`,
        [
          id,
          ctx.userId,
          JSON.stringify(wireOperation(op)),
          source,
          token,
          rows.length,
          items.filter((i) => i.changes).length,
          expiresAt,
        ],
      );
      await insertItems(tx, id, items);
    });
    return this.view(ctx, await this.row(ctx.em, id), judged);
  }

  /** Applies a preview with its token: all or nothing. */
  async apply(ctx: RequestContext, id: unknown, token: unknown): Promise<BatchView> {
    const batchId = checkId(id);
    if (typeof token !== 'string' || token === '') {
      throw validationError('token', 'is required: the token of the preview being applied');
    }
    await ctx.em.transactional(async (tx) => {
      const batch = await this.lockBatch(ctx, tx, batchId);
      if (batch.status !== 'previewed') throw conflict(`Batch ${batchId} is ${batch.status}: preview again`);
      if (batch.token !== token)
        throw conflict(`That is not the token of batch ${batchId}'s preview: preview again`);
      if (batch.expires_at.getTime() < Date.now())
        throw conflict(`Batch ${batchId}'s preview has expired: preview again`);
      const op = storedOperation(batch.operation);
      const ids = await this.targetIds(tx, batchId, false);
      const rows = await readTargets(tx, op, ids, true);
      const judged = await this.judge(ctx, tx, op, rows);
      if (judged.refusedCount) throw refusal(op, judged, 'nothing was applied');
      if (rows.length !== ids.length || stateDigest(batchId, op, rows) !== batch.token) {
        throw conflict(
          `Some of batch ${batchId}'s datasets changed since the preview: nothing was applied; preview again`,
        );
      }
      const changed = rows.map((r) => itemOf(op, r)).filter((i) => i.changes);
      await this.write(ctx, tx, batchId, op, changed, false);
      await rawQuery(tx, `update batch_edit set status = 'applied', applied_at = now() where id = ?`, [
        batchId,
      ]);
    });
    ctx.resetScope();
    return this.view(ctx, await this.row(ctx.em, batchId));
  }

  /** Undoes an applied batch as one step; 409 when a value it changed has changed since. */
  async undo(ctx: RequestContext, id: unknown): Promise<BatchView> {
    const batchId = checkId(id);
    await ctx.em.transactional(async (tx) => {
      const batch = await this.lockBatch(ctx, tx, batchId);
      if (batch.status !== 'applied')
        throw conflict(`Batch ${batchId} is ${batch.status}: only an applied batch can be undone`);
      const op = storedOperation(batch.operation);
      const items = await rawQuery<ItemRow>(
        tx,
        'select dataset_mfid, before, after from batch_edit_item where batch_id = ? and changes order by dataset_mfid',
        [batchId],
      );
      const rows = await readTargets(
        tx,
        op,
        items.map((i) => i.dataset_mfid),
        true,
      );
      const judged = await this.judge(ctx, tx, op, rows, true);
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
      await this.write(ctx, tx, batchId, op, back, true);
      await rawQuery(tx, `update batch_edit set status = 'undone', undone_at = now() where id = ?`, [
        batchId,
      ]);
    });
    ctx.resetScope();
    return this.view(ctx, await this.row(ctx.em, batchId));
  }

  /** One of the caller's batches (any caller's for a platform administrator); 404 otherwise. */
  async get(ctx: RequestContext, id: unknown): Promise<BatchView> {
    return this.view(ctx, await this.row(ctx.em, checkId(id), ctx));
  }

  /** The caller's batches, newest first (previews past their time left out). */
  async list(ctx: RequestContext, limit: number): Promise<BatchView[]> {
    const rows = await rawQuery<BatchRow>(
      ctx.em,
      `select * from batch_edit where actor_id = ? and (status <> 'previewed' or expires_at >= now())
       order by created_at desc, id desc limit ?`,
      [ctx.userId, limit],
    );
    return Promise.all(rows.map((r) => this.view(ctx, r, undefined, false)));
  }

  /** A page of a batch's targets (those it changes, or all), in MFID order after `after`. */
  async items(
    ctx: RequestContext,
    id: unknown,
    opts: { after?: string; limit: number; changedOnly: boolean },
  ): Promise<{ items: BatchItem[]; nextCursor: string | null }> {
    const batch = await this.row(ctx.em, checkId(id), ctx);
    const visible = await this.deps.datasets.policy.visibleWhere(ctx, 'd');
    const rows = await rawQuery<ItemRow & { name: string | null; changes: boolean }>(
      ctx.em,
      `select i.dataset_mfid, i.before, i.after, i.changes, d.dataset_name as name
       from batch_edit_item i join dataset d on d.unique_id = i.dataset_mfid
       where i.batch_id = ? and i.dataset_mfid > ? ${opts.changedOnly ? 'and i.changes' : ''}
         and ${visible ? `(${visible.sql})` : 'true'}
       order by i.dataset_mfid limit ?`,
      [batch.id, opts.after ?? '', ...(visible?.params ?? []), opts.limit + 1],
    );
    const page = rows.slice(0, opts.limit);
    return {
      items: page.map((r) => ({
        id: r.dataset_mfid,
        name: r.name,
        before: r.before,
        after: r.after,
        changes: r.changes,
      })),
      nextCursor: rows.length > opts.limit ? page[page.length - 1].dataset_mfid : null,
    };
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
    const visible = await this.deps.datasets.policy.visibleWhere(ctx, 'd');
    const found = await rawQuery<{ unique_id: string }>(
      ctx.em,
      `select d.unique_id from dataset d where d.unique_id in (select jsonb_array_elements_text(?::jsonb))
       and ${visible ? `(${visible.sql})` : 'true'}`,
      [JSON.stringify(ids), ...(visible?.params ?? [])],
    );
    const readable = new Set(found.map((r) => r.unique_id));
    // a dataset the caller may not read is answered exactly as one that does not exist
    const missing = (ids as string[]).find((one) => !readable.has(one));
    if (missing) throw notFound('Dataset', missing);
    return { ids: (ids as string[]).sort(), source: 'ids' };
  }

  /**
   * Which targets the caller may not change this way (`undo`: back), asked of the access rules
   * with the caller's scope and every target's grants read through `em` (inside apply and undo,
   * on the locked rows), and the caps a change would pass.
   */
  private async judge(
    ctx: RequestContext,
    em: EntityManager,
    op: BatchOperation,
    rows: readonly TargetState[],
    undo = false,
  ): Promise<{ refused: RefusedTarget[]; refusedCount: number }> {
    const inTx = ctx.within(em);
    const scope = await inTx.scope();
    const grants = await this.deps.access.grantsOn(
      em,
      rows.map((r) => r.id),
    );
    const asCaller = inTx.as(ctx.caller.user, { scope, grants });
    const action = BATCH_ACTION[op.kind];
    const refused: RefusedTarget[] = [];
    for (const r of rows) {
      const held: Permission | null = await this.deps.access.effective(
        asCaller,
        {
          uniqueId: r.id,
          type: 'dataset',
          ownerId: r.owner_id,
          projectMfid: r.project_mfid,
          instrumentMfid: r.instrument_mfid,
          public: r.public,
        },
        em,
      );
      let reason: string | null = null;
      if (!allows(held, action)) {
        reason = `needs ${ACTION_LEVEL[action]} permission, you hold ${held ?? 'none'}`;
      } else if (!undo && op.kind === 'add_keyword' && r.before !== true && r.n >= DATASET_MAX_KEYWORDS) {
        reason = `already carries ${DATASET_MAX_KEYWORDS} keywords, the most a dataset may`;
      } else if (!undo && op.kind === 'grant') {
        if (op.principalType === 'user' && op.principalId === r.owner_id) {
          reason = 'the user owns it: an owner needs no grant';
        } else if (r.before === null && r.n >= RESOURCE_MAX_GRANTS) {
          reason = `already has ${RESOURCE_MAX_GRANTS} grants, the most a dataset may hold`;
        }
      }
      if (reason) refused.push({ id: r.id, name: r.name, reason });
    }
    return { refused: refused.slice(0, REFUSED_LISTED), refusedCount: refused.length };
  }

  /** Writes the changes of `items` (each to its `after`) and their events, set-based. */
  private async write(
    ctx: RequestContext,
    tx: EntityManager,
    batchId: string,
    op: BatchOperation,
    items: readonly BatchItem[],
    undo: boolean,
  ): Promise<void> {
    const ids = items.map((i) => i.id);
    const actorId = actorOf(ctx);
    const mark = undo ? { batch_id: batchId, undo: true } : { batch_id: batchId };
    const events: EventInput[] = [];
    const event = (resourceId: string, type: EventInput['type'], payload: Record<string, unknown>) =>
      events.push({ type, actorId, resourceId, resourceType: 'dataset', payload: { ...payload, ...mark } });
    switch (op.kind) {
      case 'add_keyword':
      case 'remove_keyword': {
        const add = (op.kind === 'add_keyword') !== undo;
        if (add) await this.deps.keywords.addManyIn(tx, ids, op.keyword);
        else await this.deps.keywords.removeManyIn(tx, ids, op.keyword);
        for (const one of ids) event(one, add ? 'keyword.added' : 'keyword.removed', { keyword: op.keyword });
        break;
      }
      case 'set_field':
        await this.deps.datasets.setFieldManyIn(
          tx,
          op.field,
          items.map((i) => ({ id: i.id, value: i.after as string | null })),
        );
        for (const i of items)
          event(i.id, 'dataset.updated', { changes: { [op.field]: { from: i.before, to: i.after } } });
        break;
      case 'merge_metadata': {
        const keys = Object.keys(op.metadata);
        if (undo) {
          await this.deps.metadata.restoreKeysManyIn(
            tx,
            keys,
            items.map((i) => ({ id: i.id, before: i.after as MetadataDocument })),
          );
        } else await this.deps.metadata.mergeManyIn(tx, 'dataset', ids, op.metadata);
        for (const i of items) {
          const from = i.before as Record<string, unknown>;
          const to = i.after as Record<string, unknown>;
          const changed = keys.filter((k) => canonical(from[k]) !== canonical(to[k]));
          event(i.id, 'metadata.changed', { mode: 'merge', keys: changed });
        }
        break;
      }
      case 'grant': {
        const principal = { type: op.principalType, id: op.principalId };
        await this.deps.grants.setManyIn(
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
        await this.deps.datasets.ownership.setPublicManyIn(tx, ids, value);
        for (const one of ids) event(one, value ? 'access.public' : 'access.private', {});
        break;
      }
    }
    await this.deps.events.emitManyIn(tx, events);
  }

  /** The batch row, locked, if the caller may act on it (its actor, or a platform administrator). */
  private async lockBatch(ctx: RequestContext, tx: EntityManager, id: string): Promise<BatchRow> {
    const rows = await rawQuery<BatchRow>(tx, 'select * from batch_edit where id = ? for update', [id]);
    const row = rows.at(0);
    if (!row || (row.actor_id !== ctx.userId && !ctx.isPlatformAdmin)) throw notFound('Batch', id);
    return { ...row, expires_at: new Date(row.expires_at) };
  }

  private async row(em: EntityManager, id: string, ctx?: RequestContext): Promise<BatchRow> {
    const rows = await rawQuery<BatchRow>(em, 'select * from batch_edit where id = ?', [id]);
    const row = rows.at(0);
    if (!row || (ctx && row.actor_id !== ctx.userId && !ctx.isPlatformAdmin)) throw notFound('Batch', id);
    return row;
  }

  private async targetIds(em: EntityManager, id: string, changedOnly: boolean): Promise<string[]> {
    const rows = await rawQuery<{ dataset_mfid: string }>(
      em,
      `select dataset_mfid from batch_edit_item where batch_id = ? ${changedOnly ? 'and changes' : ''} order by dataset_mfid`,
      [id],
    );
    return rows.map((r) => r.dataset_mfid);
  }

  private async view(
    ctx: RequestContext,
    row: BatchRow,
    judged?: { refused: RefusedTarget[]; refusedCount: number },
    withSample = true,
  ): Promise<BatchView> {
    const expiresAt = new Date(row.expires_at);
    if (!judged && row.status === 'previewed' && withSample) {
      const op = storedOperation(row.operation);
      judged = await this.judge(
        ctx,
        ctx.em,
        op,
        await readTargets(ctx.em, op, await this.targetIds(ctx.em, row.id, false), false),
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

/** What `op` does to one target. */
function itemOf(op: BatchOperation, r: TargetState): BatchItem {
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

async function insertItems(tx: EntityManager, batchId: string, items: readonly BatchItem[]): Promise<void> {
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
      [batchId, JSON.stringify(chunk)],
    );
  }
}

function checkId(id: unknown): string {
  if (typeof id !== 'string' || !isMfid(id)) throw notFound('Batch', String(id));
  return id;
}

function refusal(
  op: BatchOperation,
  judged: { refused: RefusedTarget[]; refusedCount: number },
  what: string,
): AppError {
  const action = BATCH_ACTION[op.kind];
  const named = judged.refused.slice(0, 5).map((r) => `${r.id} (${r.reason})`);
  const message = `You may not ${action} ${judged.refusedCount} of the batch's datasets: ${named.join('; ')}${
    judged.refusedCount > named.length ? '; …' : ''
  }. ${what[0].toUpperCase()}${what.slice(1)}`;
  return new AppError(
    judged.refused.every((r) => r.reason.startsWith('needs ')) ? 'FORBIDDEN' : 'CONFLICT',
    message,
    judged.refused.map((r) => ({ field: 'datasets', message: `${r.id}: ${r.reason}` })),
  );
}
