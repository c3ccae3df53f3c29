import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import { groupLoader } from '../../core/db/loader';

export interface DatasetKeywordRow {
  dataset: string;
  keyword: string;
}

/** The keywords of many datasets in one query. */
export function keywordLoaders(em: EntityManager) {
  return {
    byDataset: groupLoader<string, DatasetKeywordRow>(
      (ids) =>
        rawQuery<DatasetKeywordRow>(
          em,
          `select dk.dataset_mfid as dataset, k.text as keyword from dataset_keyword dk
           join keyword k on k.id = dk.keyword_id where dk.dataset_mfid in (?) order by k.text`,
          [[...ids]],
        ),
      (row) => row.dataset,
    ),
  };
}
