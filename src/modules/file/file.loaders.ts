import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import type { StatementBatch } from '../../core/db/statement-batch';
import { keysetPage, type KeysetPage } from '../../core/pagination';
import { AssociatedFile } from './file.entity';

/**
 * Per-request loaders of the files of many datasets: one query per batch for a page of each
 * dataset's files (newest first, the same `first`/`after` for all), one for their counts
 * (shared with the request's other loaders).
 * Callers pass datasets the caller may already read.
 */
export function fileLoaders(em: EntityManager, batch: StatementBatch) {
  const pages = new Map<string, DataLoader<string, KeysetPage<AssociatedFile>>>();
  return {
    page(limit: number, cursor?: string): DataLoader<string, KeysetPage<AssociatedFile>> {
      const key = `${limit}:${cursor ?? ''}`;
      let loader = pages.get(key);
      if (!loader) {
        loader = new DataLoader(async (ids: readonly string[]) => {
          // one statement, a subquery per dataset with its MFID as a constant: each stops at its
          // page, so the cost is the pages', not the datasets' files (a window over every file
          // was linear), and the planner judges each dataset by its own size (through a lateral
          // join it assumed the average and walked the whole primary key for a small one)
          const one = `(select * from associated_file where dataset_mfid = ? ${cursor ? 'and unique_id < ?' : ''}
             order by unique_id desc limit ?)`;
          const rows = await rawQuery<Record<string, unknown>>(
            em,
            `select * from (${ids.map(() => one).join(' union all ')}) f order by f.unique_id desc`,
            ids.flatMap((id) => (cursor ? [id, cursor, limit + 1] : [id, limit + 1])),
          );
          const byDataset = new Map<string, AssociatedFile[]>(ids.map((id) => [id, []]));
          for (const row of rows) {
            const file = em.map(AssociatedFile, row);
            byDataset.get(file.dataset.uniqueId)?.push(file);
          }
          return ids.map((id) => keysetPage(byDataset.get(id) ?? [], limit));
        });
        pages.set(key, loader);
      }
      return loader;
    },
    count: new DataLoader<string, number>(async (ids) => {
      const rows = await batch.query<{ dataset: string; n: number }>(
        'select dataset_mfid as dataset, count(*)::int as n from associated_file where dataset_mfid in (?) group by dataset_mfid',
        [[...ids]],
      );
      const counts = new Map(rows.map((r) => [r.dataset, r.n]));
      return ids.map((id) => counts.get(id) ?? 0);
    }),
  };
}
