import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { groupLoader } from '../../core/db/loader';
import { rawQuery } from '../../core/db/raw';
import { Thumbnail } from './thumbnail.entity';

/** Per-request loaders of the thumbnails of many datasets (callers pass readable datasets). */
export function thumbnailLoaders(em: EntityManager) {
  const map = (rows: Record<string, unknown>[]) => rows.map((r) => em.map(Thumbnail, r));
  return {
    byDataset: groupLoader<string, Thumbnail>(
      async (ids) =>
        map(await rawQuery(em, 'select * from thumbnail where dataset_mfid in (?) order by id', [[...ids]])),
      (t) => t.dataset.uniqueId,
    ),
    first: new DataLoader<string, Thumbnail | null>(async (ids) => {
      const rows = map(
        await rawQuery(
          em,
          'select distinct on (dataset_mfid) * from thumbnail where dataset_mfid in (?) order by dataset_mfid, id',
          [[...ids]],
        ),
      );
      const byDataset = new Map(rows.map((t) => [t.dataset.uniqueId, t]));
      return ids.map((id) => byDataset.get(id) ?? null);
    }),
  };
}
