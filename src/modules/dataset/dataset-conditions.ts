import type { RequestContext } from '../../core/context';
import type { PageDriver } from '../../core/db/page';
import { rawQuery } from '../../core/db/raw';
import { likeEscape, sql, type Sql } from '../../core/db/sql';
import { validationError } from '../../core/errors';

/** The dataset filter's keyword and full-text conditions (docs/scale.md). */

/** The longest full-text query a dataset filter takes. */
export const MAX_TEXT = 200;

/** Above this many (dataset, keyword) pairs the keyword filter is a semi-join, not an id list. */
export const KEYWORD_ID_LIST = 50000;

/**
 * Datasets carrying a keyword whose text contains `keyword` (any case), and where a newest-first
 * page may start from (docs/scale.md, "The keyword filter"). The matching keywords are looked up
 * first. One keyword: the condition is a probe of the (dataset, keyword) key, and the page walks
 * the keyword's links newest first on the (keyword, dataset) index, probing each dataset: the
 * cost follows the page and the share of the keyword's datasets the caller reads, not the
 * catalog. Several: when they carry at most `KEYWORD_ID_LIST` datasets, an MFID list built from
 * that index, which the primary key walks newest first; past it a semi-join.
 */
export async function keywordCondition(
  ctx: RequestContext,
  keyword: string,
  exact = false,
): Promise<{ condition: Sql; driver?: PageDriver }> {
  const ids = await matchingKeywords(ctx, keyword, exact);
  if (ids.length === 0) return { condition: sql('false') };
  const carries = sql(
    `exists (select 1 from dataset_keyword dk where dk.dataset_mfid = d.unique_id and dk.keyword_id in (?))`,
    ids,
  );
  if (ids.length === 1) {
    return {
      condition: carries,
      driver: { from: 'dataset_keyword dk', id: 'dk.dataset_mfid', where: sql('dk.keyword_id = ?', ids[0]) },
    };
  }
  const [{ n }] = await rawQuery<{ n: number }>(
    ctx.em,
    `select count(*)::int as n from (select 1 from dataset_keyword where keyword_id in (?) limit ?) x`,
    [ids, KEYWORD_ID_LIST + 1],
  );
  if (n <= KEYWORD_ID_LIST) {
    return {
      condition: sql(
        `d.unique_id = any(array(select dk.dataset_mfid from dataset_keyword dk where dk.keyword_id in (?)))`,
        ids,
      ),
    };
  }
  return { condition: carries };
}

/**
 * The ids of the keywords whose text contains `keyword` (any case), or with `exact` the one
 * keyword that is `keyword` (the whole text; keywords are one record whatever their case, so in
 * any case: what a keyword facet counts); once per request.
 */
export function matchingKeywords(ctx: RequestContext, keyword: string, exact = false): Promise<number[]> {
  if (exact) {
    return ctx.memo(`dataset.keyword-exact:${keyword}`, async () =>
      (
        await rawQuery<{ id: number }>(ctx.em, `select id from keyword where lower(text) = lower(?)`, [
          keyword,
        ])
      ).map((r) => r.id),
    );
  }
  return ctx.memo(`dataset.keywords:${keyword}`, async () =>
    (
      await rawQuery<{ id: number }>(ctx.em, `select id from keyword where lower(text) like ? escape '\\'`, [
        `%${likeEscape(keyword.toLowerCase())}%`,
      ])
    ).map((r) => r.id),
  );
}

/**
 * Datasets whose text (fields and metadata, `dataset_text`) matches the full-text query. The
 * GIN index finds rare terms; for common ones the planner walks the newest-first order and stops
 * at the page, so no ranking runs over every match (docs/scale.md).
 */
export function textCondition(text: string): Sql {
  const q = text.trim();
  if (q === '') throw validationError('text', 'must not be blank');
  if (q.length > MAX_TEXT) throw validationError('text', `must be at most ${MAX_TEXT} characters`);
  return sql(
    `exists (select 1 from dataset_text dt where dt.dataset_mfid = d.unique_id
     and dt.search @@ websearch_to_tsquery('english', ?))`,
    q,
  );
}
