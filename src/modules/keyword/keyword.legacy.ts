import type { KeywordCount } from './keyword.service';

/** A keyword with the number of datasets carrying it. */
export const toLegacyKeywordCount = (k: KeywordCount) => ({
  keyword: k.keyword,
  num_datasets: k.numDatasets,
});
