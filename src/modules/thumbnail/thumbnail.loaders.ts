import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { groupLoader } from '../../core/db/loader';
import { rawQuery } from '../../core/db/raw';
import type { StatementBatch } from '../../core/db/statement-batch';
import { Thumbnail } from './thumbnail.entity';

/**
 * The columns lists select: everything but the image bytes (`data`), which only
 * `thumbnailB64str` reads, through `data` below.
 */
const LISTED = 'id, dataset_mfid, thumbnail_name, mime_type, creation_time, modification_time';

/** Per-request loaders of the thumbnails of many datasets (callers pass readable datasets). */
export function thumbnailLoaders(em: EntityManager, batch: StatementBatch) {
  const map = (rows: Record<string, unknown>[]) => rows.map((r) => em.map(Thumbnail, r));
  // without the bytes, rows may share the request's batched statement (no bytea in JSON)
  const run = (columns: string, sql: string, ids: readonly string[]) =>
    columns === LISTED
      ? batch.query<Record<string, unknown>>(sql.replace('$columns', columns), [[...ids]])
      : rawQuery<Record<string, unknown>>(em, sql.replace('$columns', columns), [[...ids]]);
  const all = (columns: string) =>
    groupLoader<string, Thumbnail>(
      async (ids) =>
        // oldest first: sorted here, the batch keeps no row order
        map(await run(columns, 'select $columns from thumbnail where dataset_mfid in (?)', ids)).sort(
          (a, b) => a.id - b.id,
        ),
      (t) => t.dataset.uniqueId,
    );
  const first = (columns: string) =>
    new DataLoader<string, Thumbnail | null>(async (ids) => {
      const rows = map(
        await run(
          columns,
          'select distinct on (dataset_mfid) $columns from thumbnail where dataset_mfid in (?) order by dataset_mfid, id',
          ids,
        ),
      );
      const byDataset = new Map(rows.map((t) => [t.dataset.uniqueId, t]));
      return ids.map((id) => byDataset.get(id) ?? null);
    });
  return {
    byDataset: all(LISTED),
    /** for selections that show the image (`thumbnailB64str`) */
    byDatasetWithData: all(`${LISTED}, data`),
    first: first(LISTED),
    firstWithData: first(`${LISTED}, data`),
    /** The image bytes of thumbnails by id, for rows loaded without them. */
    data: new DataLoader<number, Buffer | null>(async (ids) => {
      const rows = await rawQuery<{ id: number | string; data: Buffer }>(
        em,
        'select id, data from thumbnail where id in (?)',
        [[...ids]],
      );
      const byId = new Map(rows.map((r) => [Number(r.id), r.data]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  };
}
