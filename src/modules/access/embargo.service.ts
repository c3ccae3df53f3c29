import DataLoader from 'dataloader';
import type { RequestContext } from '../../core/context';
import { forbidden, notFound } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import { allows, refusal } from '../permission/permission';
import type { DatasetService } from '../dataset/dataset.service';
import { actorOf, type EventService } from '../outbox/event.service';
import { embargoEndSql, embargoedSql, parseEmbargoDate, type EmbargoGate } from './embargo';

/** A dataset's embargo as it is read (`GET /datasets/{id}/embargo`, GraphQL `Dataset.embargo`). */
export interface DatasetEmbargo {
  datasetId: string;
  /** the dataset's own embargo date (null: none) */
  embargoUntil: Date | null;
  /** when its bytes open: the later of its own and its published publications' embargoes */
  filesOpenAt: Date | null;
  /** whether the bytes are under embargo now (for everyone without a role on it) */
  embargoed: boolean;
  /** whether the caller may read the bytes now */
  bytesReadable: boolean;
}

interface LockedRow {
  owner_id: string;
  project_mfid: string | null;
  public: boolean;
  instrument_mfid: string | null;
  embargo_until: Date | string | null;
}

/**
 * Reads and sets a dataset's embargo date. Setting needs `manage` on the dataset (what the public
 * flag and grants need: an embargo decides who reads the bytes), checked again on the dataset's
 * row as locked by the writing transaction; reading needs `read`. The rule itself is `EmbargoGate`.
 */
export class EmbargoService {
  constructor(private readonly deps: { datasets: DatasetService; gate: EmbargoGate; events: EventService }) {}

  async ofDataset(ctx: RequestContext, datasetId: string): Promise<DatasetEmbargo> {
    const ds = await this.deps.datasets.get(ctx, datasetId);
    const row = (await datesOf(ctx, [ds.uniqueId])).get(ds.uniqueId);
    if (!row) throw notFound('Dataset', datasetId);
    return embargoOf(ds.uniqueId, row, (await this.deps.gate.closedUntil(ctx, ds.uniqueId)) === null);
  }

  /**
   * Per request, the embargoes of datasets the caller already read (GraphQL `Dataset.embargo` on a
   * list): one statement per batch for the dates and one for whether the caller may read the bytes
   * (`EmbargoGate.bytesLoader`), instead of three per dataset. An MFID that names no dataset is null.
   */
  ofReadDatasets(ctx: RequestContext): Promise<DataLoader<string, DatasetEmbargo | null>> {
    return ctx.memo('embargo.ofReadDatasets', async () => {
      const bytes = await this.deps.gate.bytesLoader(ctx);
      return new DataLoader<string, DatasetEmbargo | null>(async (ids) => {
        const byId = await datesOf(ctx, ids);
        const states = await bytes.loadMany([...ids]);
        return ids.map((id, i) => {
          const row = byId.get(id);
          if (!row) return null;
          const state = states[i];
          if (state instanceof Error) throw state;
          return embargoOf(id, row, state !== 'closed');
        });
      });
    });
  }

  /** Sets (a date) or lifts (null) a dataset's own embargo; answers it as read afterwards. */
  async setForDataset(ctx: RequestContext, datasetId: string, raw: unknown): Promise<DatasetEmbargo> {
    const until = parseEmbargoDate(raw, 'embargo_until');
    const ds = await this.deps.datasets.get(ctx, datasetId);
    await this.deps.datasets.policy.assertCan(ctx, 'manage', ds);
    await ctx.em.transactional(async (tx) => {
      const row = (
        await rawQuery<LockedRow>(
          tx,
          `select owner_id, project_mfid, public, instrument_mfid, embargo_until from dataset
         where unique_id = ? for update`,
          [ds.uniqueId],
        )
      ).at(0);
      if (!row) throw notFound('Dataset', ds.uniqueId);
      const p = await this.deps.datasets.policy.permissionOf(ctx.within(tx), {
        uniqueId: ds.uniqueId,
        type: 'dataset',
        ownerId: row.owner_id,
        projectMfid: row.project_mfid,
        instrumentMfid: row.instrument_mfid,
        public: row.public,
      });
      if (!p) throw notFound('Dataset', ds.uniqueId);
      if (!allows(p, 'manage')) throw forbidden(refusal('manage', `dataset ${ds.uniqueId}`, p));
      const before = row.embargo_until === null ? null : new Date(row.embargo_until);
      if ((before?.getTime() ?? null) === (until?.getTime() ?? null)) return;
      await rawQuery(
        tx,
        'update dataset set embargo_until = ?, modification_time = now() where unique_id = ?',
        [until, ds.uniqueId],
      );
      await this.deps.events.emit(tx, {
        type: 'dataset.updated',
        actorId: actorOf(ctx),
        resourceId: ds.uniqueId,
        resourceType: 'dataset',
        projectMfid: row.project_mfid,
        payload: {
          changes: {
            embargo_until: { from: before?.toISOString() ?? null, to: until?.toISOString() ?? null },
          },
        },
      });
    });
    return this.ofDataset(ctx, ds.uniqueId);
  }
}

const date = (v: Date | string | null) => (v === null ? null : new Date(v));

interface DatesRow {
  unique_id: string;
  own: Date | string | null;
  open_at: Date | string | null;
  closed: boolean;
}

/** Datasets' own embargo dates, when their files open and whether they are closed now, by MFID (absent: no such dataset). */
async function datesOf(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, DatesRow>> {
  const rows = await rawQuery<DatesRow>(
    ctx.em,
    `select d.unique_id, d.embargo_until as own, ${embargoEndSql('d')} as open_at, ${embargoedSql('d')} as closed
     from dataset d where d.unique_id in (?)`,
    [[...ids]],
  );
  return new Map(rows.map((r) => [r.unique_id, r]));
}

const embargoOf = (datasetId: string, row: DatesRow, bytesReadable: boolean): DatasetEmbargo => ({
  datasetId,
  embargoUntil: date(row.own),
  filesOpenAt: date(row.open_at),
  embargoed: row.closed,
  bytesReadable,
});
