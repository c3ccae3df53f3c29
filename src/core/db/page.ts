import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityDictionary, EntityName } from '@mikro-orm/core';
import { rawQuery } from './raw';
import { and, sql, type Sql } from './sql';
import { encodeCursor } from '../pagination';

/** A page request: keyset (`cursor`, newest first by MFID) or offset (`offset`). */
export interface PageRequest {
  limit: number;
  cursor?: string;
  offset?: number;
  /** a sorted page only: start at this row, included (`anchor_mfid`; not with `cursor`) */
  anchor?: string;
}

/**
 * A keyset page in another order than newest first: the sort key (an SQL expression; rows order
 * by whether it is null, then it, then the MFID, all in `direction` but nulls last), the condition
 * of the rows after the request's cursor, and the cursor of a row from its key (as text) and MFID.
 */
export interface PageOrder {
  key: string;
  /** the key is never null: rows order by it and the MFID alone (an index on both serves it) */
  notNull?: boolean;
  direction: 'asc' | 'desc';
  after: Sql | null;
  /**
   * a key that may be null, instead of `after`: the rows with a key on the page (null: none, the
   * cursor is past them) and the rows without one, read as two branches each ordered and
   * limited on its own (the first by key and MFID, which an index on both serves either way; the
   * second by MFID), then merged — one ordered scan cannot put empty keys last both ways
   */
  split?: { present: Sql | null; empty: Sql };
  cursor: (key: string | null, uniqueId: string) => string;
}

/** An offset page of a list with integer keys (deletion requests, join requests...). */
export interface OffsetPage<T> {
  items: T[];
  total: number;
}

/**
 * Where a newest-first page may start from instead of walking the table's primary key: the MFIDs
 * `id` of the rows of `from` satisfying `where`, walked newest first through an index on
 * (…, `id`) (for example a keyword's links on `(keyword_id, dataset_mfid)`). Each candidate is
 * then checked against the page's own condition, so the rows are the same; the walk stops when
 * the page is full, after a number of probes bounded by the page and the share of candidates
 * that pass, not by the table.
 */
export interface PageDriver {
  from: string;
  id: string;
  where: Sql;
}

/**
 * The rows of `table alias` satisfying `where` (and after `cursor`): a scan of the table, or with
 * a driver, its candidates with a lateral probe of each. Unordered and unlimited: the caller
 * orders by `order` (descending: newest first) and limits. With a driver that is the candidates'
 * own column (`_walk`, their MFID), which the planner knows to come out of the index in order;
 * ordered by the probed row's MFID it would sort every candidate first. `alias.*` and `extra`
 * as `_extra`.
 */
function newestFirst(
  table: string,
  alias: string,
  where: Sql,
  cursor: string | undefined,
  extra: Sql,
  driver: PageDriver | undefined,
): { source: Sql; order: string } {
  if (!driver) {
    const full = and(where, cursor ? sql(`${alias}.unique_id < ?`, cursor) : null);
    return {
      source: sql(
        `select ${alias}.*, ${extra.sql} as _extra from ${table} ${alias} where ${full.sql}`,
        ...extra.params,
        ...full.params,
      ),
      order: `${alias}.unique_id`,
    };
  }
  const candidates = and(driver.where, cursor ? sql(`${driver.id} < ?`, cursor) : null);
  return {
    source: sql(
      `select ${alias}.*, ${extra.sql} as _extra, k.id as _walk
       from (select ${driver.id} as id from ${driver.from} where ${candidates.sql} order by ${driver.id} desc) k
       cross join lateral (select ${alias}.* from ${table} ${alias} where ${alias}.unique_id = k.id and ${where.sql}) ${alias}`,
      ...extra.params,
      ...candidates.params,
      ...where.params,
    ),
    order: `${alias}._walk`,
  };
}

/** What a projected page selects from each row of the page (`<alias>`, the table's columns). */
export interface Projection {
  /** the select list (besides `_id`, `_extra`, `_key` and, in a sorted page, `_sort`) */
  columns: string;
  /** joins to other tables, by their own aliases */
  joins: string;
}

/** How a projected page is walked and what comes with it. */
export interface PageOptions {
  /** computed per row, returned as `_extra` */
  extra?: Sql;
  /** another order than newest first (`driver` then does not apply) */
  order?: PageOrder;
  /** where a newest-first walk may start from */
  driver?: PageDriver;
  /** the list's total, within the same statement */
  count?: TotalQuery;
  /**
   * what to select of each projected row (alias `r`: `_id`, `_extra` and the projection's
   * columns) instead of its columns, for example their JSON (`_id` comes anyway), with joins
   * of its own
   */
  select?: Projection;
}

/** A page of projected rows. */
export interface ProjectedPage<R> {
  rows: (R & { _id: string; _extra: unknown })[];
  nextCursor: string | null;
  /** in another order than newest first: each row's cursor by MFID */
  cursors?: Map<string, string>;
  /** the total of the count passed along, when one was */
  total?: Total;
}

/**
 * One page of the rows of `table alias` satisfying `where`, newest first by MFID or in
 * `opts.order` (keyset: after `page.cursor`, a decoded MFID newest first, the cursor as issued
 * otherwise), projected by `projection` over the page's rows: each row has `_id` (the MFID),
 * `_extra` and the projection's columns. The page is the inner query, so the joins see only its
 * rows. `opts.count` runs within the same statement (an empty page still returns it), its
 * result as `total`.
 */
export async function selectProjectedPage<R extends object>(
  em: EntityManager,
  table: string,
  alias: string,
  where: Sql,
  page: PageRequest,
  projection: Projection,
  opts: PageOptions = {},
): Promise<ProjectedPage<R>> {
  const { order } = opts;
  const extra = opts.extra ?? sql('null');
  let source: Sql;
  let orderBy: string;
  // the page's order over its output columns (`_id`, and `_sort`, the key of a sorted page):
  // the outer selects keep the inner order without sorting again
  let outer: (prefix: string) => string;
  if (order) {
    const dir = order.direction;
    if (order.split) {
      const n = page.limit + 1 + (page.offset ?? 0);
      const branch = (cond: Sql, by: string): Sql => {
        const full = and(where, cond);
        return sql(
          `(select ${alias}.*, ${extra.sql} as _extra, (${order.key}) as _sort, (${order.key})::text as _key
         from ${table} ${alias} where ${full.sql} order by ${by} limit ?)`,
          ...extra.params,
          ...full.params,
          n,
        );
      };
      const parts = [
        order.split.present
          ? branch(order.split.present, `${order.key} ${dir}, ${alias}.unique_id ${dir}`)
          : null,
        branch(order.split.empty, `${alias}.unique_id ${dir}`),
      ].filter((p): p is Sql => p !== null);
      source = {
        sql: `select * from (${parts.map((p) => p.sql).join(' union all ')}) ${alias}`,
        params: parts.flatMap((p) => p.params),
      };
    } else {
      const full = and(where, order.after);
      source = sql(
        `select ${alias}.*, ${extra.sql} as _extra, (${order.key}) as _sort, (${order.key})::text as _key
       from ${table} ${alias} where ${full.sql}`,
        ...extra.params,
        ...full.params,
      );
    }
    const nulls = order.notNull ? '' : `${alias}._sort is null, `;
    orderBy = `${nulls}${alias}._sort ${dir}, ${alias}.unique_id ${dir}`;
    outer = (p) => `${order.notNull ? '' : `${p}_sort is null, `}${p}_sort ${dir}, ${p}_id ${dir}`;
  } else {
    const walk = newestFirst(table, alias, where, page.cursor, extra, opts.driver);
    source = walk.source;
    orderBy = `${walk.order} desc`;
    outer = (p) => `${p}_id desc`;
  }
  const projected = `select ${alias}.unique_id as _id, ${alias}._extra,
     ${order ? `${alias}._sort, ${alias}._key` : 'null::text as _key'}, ${projection.columns}
     from (select * from (${source.sql}) ${alias} order by ${orderBy} limit ? offset ?) ${alias}
     ${projection.joins}`;
  const paged = opts.select
    ? `select r._id, r._key${order ? ', r._sort' : ''}, ${opts.select.columns} from (${projected}) r
       ${opts.select.joins}`
    : projected;
  const params = [...source.params, page.limit + 1, page.offset ?? 0];
  type Row = R & { _id: string; _extra: unknown; _key: string | null };
  let rows: Row[];
  let total: Total | undefined;
  if (opts.count) {
    // one row of the count, joined to the page's rows (or, on an empty page, to a null row)
    const joined = await rawQuery<Row & { _n: number }>(
      em,
      `select p.*, c.n as _n from (${opts.count.sql.sql}) c left join (${paged}) p on true order by ${outer('p.')}`,
      [...opts.count.sql.params, ...params],
    );
    total = opts.count.total(joined[0]._n);
    rows = joined.filter((r) => (r._id as string | null) !== null);
  } else {
    rows = await rawQuery<Row>(em, `${paged} order by ${outer('')}`, params);
  }
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  const more = rows.length > page.limit && last !== undefined;
  if (!order) return { rows: items, nextCursor: more ? encodeCursor(last._id) : null, total };
  const cursors = new Map(items.map((r) => [r._id, order.cursor(r._key, r._id)]));
  return { rows: items, nextCursor: more ? (cursors.get(last._id) ?? null) : null, cursors, total };
}

/**
 * One offset page of `select <select> from <from> where <where> order by <order>`, mapped to
 * managed entities, and the number of rows matching in all. `from` may hold joins.
 */
export async function offsetRows<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  query: { select: string; from: string; where: Sql; order: string },
  page: { limit: number; offset: number },
): Promise<OffsetPage<T>> {
  const { select, from, where, order } = query;
  const [rows, total] = await Promise.all([
    rawQuery<EntityDictionary<T>>(
      em,
      `select ${select} from ${from} where ${where.sql} order by ${order} limit ? offset ?`,
      [...where.params, page.limit, page.offset],
    ),
    countRows(em, from, where),
  ]);
  return { items: rows.map((r) => em.map(entity, r)), total };
}

/**
 * Up to `limit + 1` rows of `select <select> from <from> where <where>`, newest first by the
 * column `key`, only those below `before` when given: the extra row tells whether more follow.
 */
export async function rowsBefore<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  query: { select: string; from: string; where: Sql; key: string },
  page: { limit: number; before?: string | number },
): Promise<T[]> {
  const { select, from, key } = query;
  const where = and(query.where, page.before ? sql(`${key} < ?`, page.before) : null);
  const rows = await rawQuery<EntityDictionary<T>>(
    em,
    `select ${select} from ${from} where ${where.sql} order by ${key} desc limit ?`,
    [...where.params, page.limit + 1],
  );
  return rows.map((r) => em.map(entity, r));
}

/** A total: exact, or (`exact: false`) a lower bound: at least `count` match. */
export interface Total {
  count: number;
  exact: boolean;
}

/**
 * A statement of one row (`n`) counting a list, and how its `n` reads as the list's total: run
 * alone ({@link countTotal}) or within the page's own statement (`selectProjectedPage`).
 */
export interface TotalQuery {
  sql: Sql;
  total: (n: number) => Total;
}

/** `count(*)` of `<from> where <where>` (`from` may hold joins): an exact total. */
export function exactCount(from: string, where: Sql): TotalQuery {
  return {
    sql: { sql: `select count(*)::int as n from ${from} where ${where.sql}`, params: where.params },
    total: (n) => ({ count: n, exact: true }),
  };
}

/**
 * `count(*)` of `<from> where <where>`, counting no further than `bound`: past it, the total is
 * `{count: bound, exact: false}`. The cost is bounded by the rows read to find `bound` matches,
 * not by every match.
 */
export function boundedCount(from: string, where: Sql, bound: number): TotalQuery {
  return {
    sql: {
      sql: `select count(*)::int as n from (select 1 from ${from} where ${where.sql} limit ?) x`,
      params: [...where.params, bound + 1],
    },
    total: (n) => (n > bound ? { count: bound, exact: false } : { count: n, exact: true }),
  };
}

/** Runs a count statement on its own. */
export async function countTotal(em: EntityManager, q: TotalQuery): Promise<Total> {
  const rows = await rawQuery<{ n: number }>(em, q.sql.sql, q.sql.params);
  return q.total(rows[0].n);
}

/** {@link boundedCount}, run. */
export function countRowsUpTo(em: EntityManager, from: string, where: Sql, bound: number): Promise<Total> {
  return countTotal(em, boundedCount(from, where, bound));
}

/** `count(*)` of `<from> where <where>` (`from` may hold joins). */
export async function countRows(em: EntityManager, from: string, where: Sql): Promise<number> {
  return (await countTotal(em, exactCount(from, where))).count;
}
