import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import { groupLoader } from '../../core/db/loader';
import { DATASET_MAX_KEYWORDS } from './keyword.service';

export interface DatasetKeywordRow {
  dataset: string;
  keyword: string;
}

/**
 * The keywords of many datasets in one query, at most DATASET_MAX_KEYWORDS each (the cap is
 * kept on writes; the read cap guards records imported before it).
 */
export function keywordLoaders(em: EntityManager) {
  return {
    byDataset: groupLoader<string, DatasetKeywordRow>(
      (ids) =>
        rawQuery<DatasetKeywordRow>(
          em,
          `select dataset, keyword from (
             select dk.dataset_mfid as dataset, k.text as keyword,
               row_number() over (partition by dk.dataset_mfid order by k.text) as n
             from dataset_keyword dk join keyword k on k.id = dk.keyword_id where dk.dataset_mfid in (?)
           ) ranked where n <= ? order by keyword`,
          [[...ids], DATASET_MAX_KEYWORDS],
        ),
      (row) => row.dataset,
    ),
  };
}
