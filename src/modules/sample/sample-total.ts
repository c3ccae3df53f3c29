import type { RequestContext } from '../../core/context';
import type { Sql } from '../../core/db/sql';
import type { AccessService } from '../permission/access.service';
import { visibilityTotalRows } from '../permission/visibility-total.entity';
import { visibleTotalParts, type TotalsTable } from '../permission/visible-totals';

/** What these functions read of a sample filter (sample.query.ts's `SampleFilter`): its keys, and `public`. */
type SampleFilter = { public?: boolean };

/**
 * The rows of `sample_total` (without `id`, in its column order) that a set of samples
 * contributes: `source` selects their columns and `n` (+1 or -1). As `datasetTotalRows` for
 * datasets: each sample counts under every dimension it has a value for (`all` always), once in
 * its shard of the A rows and once in its P row (public: its shard) or V row (private: its owner
 * and project, shard 0). The trigger that keeps the table, its backfill and its test use this.
 */
export function sampleTotalRows(source: string): string {
  return visibilityTotalRows(source, [
    ['owner', 'owner_id'],
    ['project', 'project_mfid'],
    ['sample_type', 'sample_type'],
  ]);
}

/** Samples and their totals table, as the visibility rule reads them (alias `s`). */
const SAMPLE_TOTALS: TotalsTable = { type: 'sample', table: 'sample', totals: 'sample_total' };

/** The `sample_total` dimension of each sample column a field facet groups by. */
const FIELD_DIMENSIONS: Record<string, string> = {
  owner_id: 'owner',
  project_mfid: 'project',
  sample_type: 'sample_type',
};

/**
 * The groups `(value, n)` of one sample column over the samples a filter with no key besides
 * `public` selects for the caller, from `sample_total` (docs/scale.md, "Facet fields and sorted
 * pages"): the rows of the column's dimension the caller reads without grants, plus the samples
 * only a grant lets them read (found from their grants) and minus the readable ones a deletion
 * request hides (found from the requests). Null for any other filter (the rows answer).
 */
export async function sampleFieldTotals(
  ctx: RequestContext,
  access: AccessService,
  f: SampleFilter,
  column: string,
): Promise<Sql | null> {
  const dim = FIELD_DIMENSIONS[column] as string | undefined;
  if (dim === undefined || !alone(f)) return null;
  const parts = await visibleTotalParts(ctx, access, SAMPLE_TOTALS, f.public, dim, `s.${column}::varchar`);
  return {
    sql: `select u.value, sum(u.n) as n from (${parts.map((p) => `(${p.sql})`).join(' union all ')}) u
          where u.value is not null group by 1 having sum(u.n) > 0`,
    params: parts.flatMap((p) => p.params),
  };
}

/**
 * The number of samples a filter with no key besides `public` selects for the caller (the sample
 * list's total), from the `all` rows of `sample_total` with the same grant and deletion-request
 * corrections as {@link sampleFieldTotals}: a statement of one row `n`, in time that does not grow
 * with the catalog. Null for any other filter (the rows are counted).
 */
export async function sampleCountTotal(
  ctx: RequestContext,
  access: AccessService,
  f: SampleFilter,
): Promise<Sql | null> {
  if (!alone(f)) return null;
  const parts = await visibleTotalParts(ctx, access, SAMPLE_TOTALS, f.public, 'all', 'null::varchar');
  return {
    sql: `select coalesce(sum(u.n), 0)::int as n from (${parts.map((p) => `(${p.sql})`).join(' union all ')}) u`,
    params: parts.flatMap((p) => p.params),
  };
}

/** Whether the filter has no key besides `public`. */
function alone(f: SampleFilter): boolean {
  return Object.entries(f as Record<string, unknown>).every(
    ([key, value]) =>
      key === 'public' ||
      value === undefined ||
      value === null ||
      (Array.isArray(value) && value.length === 0),
  );
}
