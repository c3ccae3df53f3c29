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
  return `select dims.dim, dims.value, sc.scope, sc.owner_id, sc.project_mfid, sc.shard, sum(c.n) as n
    from ${source} c
    cross join lateral (values ('all', null::varchar), ('owner', c.owner_id::varchar),
      ('project', c.project_mfid::varchar), ('instrument', c.instrument_mfid::varchar),
      ('measurement', c.measurement::varchar), ('data_type', c.data_type::varchar),
      ('session', c.session_name::varchar), ('data_format', c.data_format::varchar)) dims(dim, value)
    cross join lateral (values ('A', null::varchar, null::varchar, hashtext(c.unique_id) & 7),
      (case when c.public then 'P' else 'V' end, case when c.public then null else c.owner_id end,
       case when c.public then null else c.project_mfid end,
       case when c.public then hashtext(c.unique_id) & 7 else 0 end)) sc(scope, owner_id, project_mfid, shard)
    where dims.dim = 'all' or dims.value is not null
    group by 1, 2, 3, 4, 5, 6`;
}
