import type { RequestContext } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import type { DatasetFilter, DatasetQuery } from './dataset.query';
import {
  fieldFacetPage,
  rowGroups,
  type FacetFieldSpec,
  type FieldFacetPage,
  type FieldFacetRequest,
} from '../owned-record/field-facets';

/** The dimensions the dataset facets count by. */
export const FACET_DIMENSIONS = [
  'measurement',
  'instrument',
  'project',
  'keyword',
  'dataType',
  'owner',
  'public',
] as const;
export type FacetDimension = (typeof FACET_DIMENSIONS)[number];

/** At most this many values per dimension: the most frequent, ties by value. */
export const FACET_LIMIT = 20;

/** One value of a dimension and how many datasets of the result set carry it. */
export interface FacetValue {
  /** what a filter takes: the text, the MFID (instrument, project, owner) or `true`/`false` */
  value: string;
  /** for display: instrument name, project title (slug), owner username; null for the rest */
  label: string | null;
  count: number;
}

export type DatasetFacets = Record<FacetDimension, FacetValue[]> & {
  /** the number of datasets in the result set (the list's total) */
  total: number;
  /** false when `total` is the TOTAL_COUNT_LIMIT bound of a full-text or metadata search (the list's `total_exact`) */
  totalIsExact: boolean;
  /**
   * true when the result set is larger than `FACET_SAMPLE`: the keyword counts, and for a filter
   * the tally does not answer every dimension's counts, are over its newest `FACET_SAMPLE`
   * datasets; false when every count is exact
   */
  capped: boolean;
};

/**
 * Counts the tally cannot give (keywords; every dimension of a filter on keywords, text,
 * metadata...) are taken over at most this many datasets of the result set, the newest first
 * (docs/scale.md): their cost is bounded by it, not by the size of the result set.
 */
export const FACET_SAMPLE = 2000;

interface Row {
  dim: FacetDimension | 'sampled';
  value: string;
  n: number;
}

/**
 * The six column dimensions of `source` (rows of the tally's columns and `n`): top values each.
 * `anyCase`: measurements and data types that differ only in case are one value, shown in the
 * spelling that sorts first among them (what a filter ignoring case selects: the same count).
 */
function columnFacets(source: string, anyCase = false): string {
  const rows = anyCase
    ? `select s.public, s.owner_id, s.project_mfid, s.instrument_mfid,
         min(s.measurement) over (partition by lower(s.measurement)) as measurement,
         min(s.data_type) over (partition by lower(s.data_type)) as data_type, s.n
       from (${source}) s`
    : source;
  return `select dim, value, n from (
       select dim, value, n, row_number() over (partition by dim order by n desc, value) as rk from (
         select case when grouping(d.measurement) = 0 then 'measurement'
                     when grouping(d.instrument_mfid) = 0 then 'instrument'
                     when grouping(d.project_mfid) = 0 then 'project'
                     when grouping(d.data_type) = 0 then 'dataType'
                     when grouping(d.owner_id) = 0 then 'owner'
                     else 'public' end as dim,
                coalesce(d.measurement, d.instrument_mfid, d.project_mfid, d.data_type, d.owner_id,
                         d.public::text) as value,
                sum(d.n)::int as n
         from (${rows}) d
         group by grouping sets ((d.measurement), (d.instrument_mfid), (d.project_mfid), (d.data_type),
                                 (d.owner_id), (d.public))
         having sum(d.n) > 0
       ) g where value is not null
     ) ranked where rk <= ?`;
}

/**
 * The facet counts of the datasets `filter` selects for the caller: the same result set as the
 * list (visibility, deletion and every filter). When the tally answers the filter, the six column
 * dimensions and the total are exact sums over it; the keyword dimension (and, for any other
 * filter, every dimension) is counted over the newest `FACET_SAMPLE` datasets of the result set
 * (`capped` when there are more; the total then comes from the list's count). Datasets without a
 * value in a dimension (no instrument, no measurement...) are not counted in it.
 */
export async function datasetFacets(
  ctx: RequestContext,
  query: DatasetQuery,
  filter: DatasetFilter,
): Promise<DatasetFacets> {
  const tallied = await query.tallied(ctx, filter);
  const { where } = await query.compile(ctx, filter);
  // the newest FACET_SAMPLE + 1 matches (the extra row tells whether the sample is capped)
  const sample = `sample as materialized (select d.unique_id, ${SAMPLE_COLUMNS}, 1 as n from dataset d
     where ${where.sql} order by d.unique_id desc limit ?),
     counted as (select * from sample order by unique_id desc limit ?)`;
  // a keyword probe per sampled dataset (an index-only lookup), not a join with every pair
  const keywordFacet = `select 'keyword' as dim, k.text as value, x.n
     from (select kid, count(*)::int as n from (select unnest(array(select dk.keyword_id
       from dataset_keyword dk where dk.dataset_mfid = s.unique_id)) as kid from counted s) u group by kid) x
     join keyword k on k.id = x.kid order by x.n desc, k.text limit ?`;
  const sampled = `select 'sampled' as dim, '' as value, count(*)::int as n from sample`;
  const rows = tallied
    ? await rawQuery<Row>(
        ctx.em,
        `with ${sample}
         (${columnFacets(tallied.sql, filter.anyCase)}) union all (${keywordFacet}) union all (${sampled})`,
        [...where.params, FACET_SAMPLE + 1, FACET_SAMPLE, ...tallied.params, FACET_LIMIT, FACET_LIMIT],
      )
    : await rawQuery<Row>(
        ctx.em,
        `with ${sample}
         (${columnFacets('select * from counted', filter.anyCase)}) union all (${keywordFacet}) union all (${sampled})`,
        [...where.params, FACET_SAMPLE + 1, FACET_SAMPLE, FACET_LIMIT, FACET_LIMIT],
      );
  const sampledRows = rows.find((r) => r.dim === 'sampled')?.n ?? 0;
  const out: DatasetFacets = {
    total: 0,
    totalIsExact: true,
    capped: sampledRows > FACET_SAMPLE,
    measurement: [],
    instrument: [],
    project: [],
    keyword: [],
    dataType: [],
    owner: [],
    public: [],
  };
  const counts = rows.filter((r): r is Row & { dim: FacetDimension } => r.dim !== 'sampled');
  for (const row of counts.sort((a, b) => b.n - a.n || cmp(a.value, b.value))) {
    out[row.dim].push({ value: row.value, label: null, count: row.n });
  }
  if (tallied || !out.capped) out.total = out.public.reduce((sum, v) => sum + v.count, 0);
  else ({ count: out.total, exact: out.totalIsExact } = await query.total(ctx, filter));
  await label(ctx, out);
  return out;
}

const SAMPLE_COLUMNS = 'd.public, d.owner_id, d.project_mfid, d.instrument_mfid, d.measurement, d.data_type';

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Display labels of the MFID dimensions (directory data every caller may read). */
async function label(ctx: RequestContext, facets: DatasetFacets): Promise<void> {
  const ids = (dim: FacetDimension) => facets[dim].map((v) => v.value);
  const [instruments, projects, owners] = await Promise.all([
    ctx.loaders.instrument.loadMany(ids('instrument')),
    ctx.loaders.project.loadMany(ids('project')),
    ctx.loaders.user.loadMany(ids('owner')),
  ]);
  const set = <T>(dim: FacetDimension, found: (T | Error | null)[], name: (t: T) => string | null) => {
    facets[dim].forEach((v, i) => {
      const record = found[i];
      v.label = record && !(record instanceof Error) ? name(record) : null;
    });
  };
  set('instrument', instruments, (i) => i.instrumentName);
  set('project', projects, (p) => p.title ?? p.projectId);
  set('owner', owners, (u) => u.username ?? null);
  for (const v of facets.public) v.label = v.value === 'true' ? 'public' : 'private';
}

/** The fields a dataset facet page groups by (the 3.2 client's names), and whether the tally holds them. */
export const DATASET_FACET_FIELDS: Record<
  'session' | 'measurement' | 'data_format' | 'owner' | 'instrument' | 'project',
  FacetFieldSpec & { tallied: boolean }
> = {
  session: { column: 'session_name', ref: null, tallied: false },
  measurement: { column: 'measurement', ref: null, tallied: true },
  data_format: { column: 'data_format', ref: null, tallied: false },
  owner: { column: 'owner_id', ref: 'owner', tallied: true },
  instrument: { column: 'instrument_mfid', ref: 'instrument', tallied: true },
  project: { column: 'project_mfid', ref: 'project', tallied: true },
};
export type DatasetFacetField = keyof typeof DATASET_FACET_FIELDS;

/**
 * One page of the buckets of one field over the datasets `filter` selects for the caller (the
 * list's result set: visibility, deletion and every filter). Exact counts: with no filter besides
 * `public`, summed from the field's rows of `dataset_total` (every field; bounded by the values
 * and the caller's visibility groups, not the catalog); else from the tally when it holds the
 * field and answers the filter (bounded by the tally); else counted over the matching rows
 * (docs/scale.md, "Facet fields and sorted pages").
 */
export async function datasetFieldFacets(
  ctx: RequestContext,
  query: DatasetQuery,
  filter: DatasetFilter,
  req: FieldFacetRequest & { field: DatasetFacetField },
): Promise<FieldFacetPage> {
  const spec = DATASET_FACET_FIELDS[req.field];
  // no filter besides `public`: the field's own rows of dataset_total
  const totals = await query.fieldTotals(ctx, filter, spec.column);
  const tallied = !totals && spec.tallied ? await query.tallied(ctx, filter) : null;
  const groups = totals
    ? totals
    : tallied
      ? {
          sql: `select x.${spec.column} as value, sum(x.n) as n from (${tallied.sql}) x
              where x.${spec.column} is not null group by 1 having sum(x.n) > 0`,
          params: tallied.params,
        }
      : rowGroups('dataset d', `d.${spec.column}`, (await query.compile(ctx, filter)).where);
  return fieldFacetPage(ctx, spec, groups, req);
}
