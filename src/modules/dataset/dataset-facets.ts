import type { RequestContext } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import type { DatasetFilter, DatasetQuery } from './dataset.query';

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
};

interface Row {
  dim: FacetDimension;
  value: string;
  n: number;
}

/**
 * The facet counts of the datasets `filter` selects for the caller: the same result set as the
 * list (visibility, deletion and every filter), counted by grouping sets over the tally when it
 * answers the filter, else over the dataset rows (docs/scale.md), and by keyword over the rows. Datasets without a value in a dimension (no instrument,
 * no measurement...) are not counted in it; `public` always sums to the total.
 */
export async function datasetFacets(
  ctx: RequestContext,
  query: DatasetQuery,
  filter: DatasetFilter,
): Promise<DatasetFacets> {
  const source = await query.source(ctx, filter);
  const columns = await rawQuery<Row>(
    ctx.em,
    `select dim, value, n from (
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
         from (${source.sql}) d
         group by grouping sets ((d.measurement), (d.instrument_mfid), (d.project_mfid), (d.data_type),
                                 (d.owner_id), (d.public))
         having sum(d.n) > 0
       ) g where value is not null
     ) ranked where rk <= ?`,
    [...source.params, FACET_LIMIT],
  );
  const { where } = await query.compile(ctx, filter);
  const keywords = await rawQuery<Row>(
    ctx.em,
    `select 'keyword' as dim, k.text as value, count(*)::int as n
     from dataset d join dataset_keyword dk on dk.dataset_mfid = d.unique_id
     join keyword k on k.id = dk.keyword_id
     where ${where.sql} group by k.text order by n desc, k.text limit ?`,
    [...where.params, FACET_LIMIT],
  );
  const out: DatasetFacets = {
    total: 0,
    measurement: [],
    instrument: [],
    project: [],
    keyword: [],
    dataType: [],
    owner: [],
    public: [],
  };
  for (const row of [...columns, ...keywords].sort((a, b) => b.n - a.n || cmp(a.value, b.value))) {
    out[row.dim].push({ value: row.value, label: null, count: row.n });
  }
  out.total = out.public.reduce((sum, v) => sum + v.count, 0);
  await label(ctx, out);
  return out;
}

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
