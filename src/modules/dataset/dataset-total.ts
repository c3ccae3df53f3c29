import { visibilityTotalRows } from '../permission/visibility-total.entity';

/** The columns of `dataset` that `datasetTotalRows` reads (what a trigger's union of old and new rows selects). */
export const DATASET_TOTAL_COLUMNS =
  'unique_id, public, owner_id, project_mfid, instrument_mfid, measurement, data_type, session_name, data_format';

/**
 * The rows of `dataset_total` (without `id`, in its column order) that a set of datasets
 * contributes: `source` selects their columns and `n` (+1 or -1). Each dataset counts under every
 * dimension it has a value for (`all` always), once in its shard of the A rows and once in its P
 * row (public: its shard, no owner or project) or V row (private: its owner and project, shard 0).
 * The trigger that keeps the table, its backfill and the test of its invariant all use this.
 */
export function datasetTotalRows(source: string): string {
  return visibilityTotalRows(source, [
    ['owner', 'owner_id'],
    ['project', 'project_mfid'],
    ['instrument', 'instrument_mfid'],
    ['measurement', 'measurement'],
    ['data_type', 'data_type'],
    ['session', 'session_name'],
    ['data_format', 'data_format'],
  ]);
}

/**
 * The same rows as `datasetTotalRows(source)`, with the datasets grouped first by their columns
 * and shard (`hashtext(unique_id) & 7`): a statement's rows share a few combinations, so each
 * combination, not each dataset, is spread over the dimensions and scopes. For a batch of 10,000
 * datasets of one owner the trigger's statement went from 160,000 spread rows a side to a few
 * hundred (1.0–1.8 s to 0.07–0.11 s at load 17; docs/performance.md, "Batch edits").
 */
export function datasetTotalRowsGrouped(source: string): string {
  const key = DATASET_TOTAL_COLUMNS.replace('unique_id, ', '');
  return datasetTotalRows(
    `(select ${key}, h, sum(n) as n from (select ${key}, hashtext(unique_id) & 7 as h, n from ${source} s) s
      group by ${key}, h)`,
  ).replace(/hashtext\(c\.unique_id\) & 7/g, 'c.h');
}
