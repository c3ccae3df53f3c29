import type { RequestContext } from '../../core/context';
import { and, type Sql } from '../../core/db/sql';
import { rawQuery } from '../../core/db/raw';
import {
  classifyConditions,
  documentConditions,
  indexedProbe,
  OVERFLOW_MATCH,
  type IndexedCondition,
  type MetadataCondition,
} from './metadata.filter';

/**
 * The metadata conditions of a collection request on the resource rows aliased `alias`, with
 * the plan chosen from the data rather than left to the planner's estimates (docs/scale.md,
 * "The adaptive plan of metadata conditions"):
 *
 * 1. the matches of each condition a side index answers are counted on its covering index
 *    (`metadata_value (path, dim, num, resource_id)`, `metadata_string (path, str, resource_id)`),
 *    up to `ID_LIST_LIMIT` (memoised per request);
 * 2. when one has at most that many, the rows start from its matches: `unique_id = any(array(…))`,
 *    which the primary key walks newest first over exactly those MFIDs (the page stops at the
 *    limit, the bounded total at its bound); the others are checked per row;
 * 3. otherwise every indexed condition is a probe per row (a scalar subquery the planner cannot
 *    turn into a join over every match): the page walks newest first and stops when full.
 *
 * Either way the rows are the same as the plain conditions' (`metadataCondition`).
 */
export async function plannedMetadataCondition(
  ctx: RequestContext,
  alias: string,
  conditions: readonly MetadataCondition[],
): Promise<Sql | null> {
  if (conditions.length === 0) return null;
  const classified = classifyConditions(conditions);
  const { indexed } = classified;
  const rest = documentConditions(alias, classified);
  if (indexed.length === 0) return and(...rest);
  const list = ctx.config.limits.idListLimit;
  const counts = list > 0 ? await matchCounts(ctx, indexed, list) : indexed.map(() => Infinity);
  const fewest = counts.indexOf(Math.min(...counts));
  const driver =
    counts[fewest] <= list
      ? wrap(`${alias}.unique_id = any(array(`, matchSource(indexed[fewest]), '))')
      : null;
  return and(driver, ...indexed.map((c) => indexedProbe(alias, c)), ...rest);
}

/** The resource ids a condition's index rows give (with the marked documents, for a string). */
function matchSource(c: IndexedCondition): Sql {
  const own = wrap(`select v.resource_id from ${c.table} v where `, c.match, '');
  if (c.overflow === undefined) return own;
  return wrap('', own, ` union all select v.resource_id from ${c.table} v where ${OVERFLOW_MATCH}`);
}

/** How many index rows match each condition, each counted up to `list + 1`. */
async function matchCounts(
  ctx: RequestContext,
  indexed: IndexedCondition[],
  list: number,
): Promise<number[]> {
  const counts: number[] = [];
  for (const c of indexed) {
    const source = matchSource(c);
    counts.push(
      await ctx.memo(`metadata.matches:${list}:${source.sql}:${JSON.stringify(source.params)}`, async () => {
        const rows = await rawQuery<{ n: number }>(
          ctx.em,
          `select count(*)::int as n from (${source.sql} limit ?) x`,
          [...source.params, list + 1],
        );
        return rows[0].n;
      }),
    );
  }
  return counts;
}

function wrap(before: string, inner: Sql, after: string): Sql {
  return { sql: `${before}${inner.sql}${after}`, params: inner.params };
}
