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
