import type { StatementBatch } from '../../core/db/statement-batch';
import { groupLoader } from '../../core/db/loader';
import { DATASET_MAX_KEYWORDS } from '../dataset/dataset.fields';

export interface DatasetKeywordRow {
  dataset: string;
  keyword: string;
}

/**
 * The keywords of many datasets in one query (shared with the request's other loaders), at most DATASET_MAX_KEYWORDS each (the cap is
 * kept on writes; the read cap guards records imported before it).
 */
export function keywordLoaders(batch: StatementBatch) {
  return {
    byDataset: groupLoader<string, DatasetKeywordRow>(
      async (ids) =>
        // the batch keeps no row order: `n` (the rank by text) restores it
        (
          await batch.query<DatasetKeywordRow & { n: number | string }>(
            `select dataset, keyword, n from (
             select dk.dataset_mfid as dataset, k.text as keyword,
               row_number() over (partition by dk.dataset_mfid order by k.text) as n
             from dataset_keyword dk join keyword k on k.id = dk.keyword_id where dk.dataset_mfid in (?)
           ) ranked where n <= ?`,
            [[...ids], DATASET_MAX_KEYWORDS],
          )
        )
          .sort((a, b) => Number(a.n) - Number(b.n))
          .map(({ dataset, keyword }) => ({ dataset, keyword })),
      (row) => row.dataset,
    ),
  };
}
