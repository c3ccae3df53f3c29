import { Type } from '../../core/rest/schema';
import type { KeywordCount } from './keyword.service';

/** A keyword with the number of datasets carrying it. */
export const toLegacyKeywordCount = (k: KeywordCount) => ({
  keyword: k.keyword,
  num_datasets: k.numDatasets,
});

export const KEYWORD = Type.Object(
  { keyword: Type.String(), num_datasets: Type.Integer({ minimum: 0 }) },
  { title: 'KeywordCount' },
);
