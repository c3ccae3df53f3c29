import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityDictionary, EntityName } from '@mikro-orm/core';
import { rawQuery } from './raw';
import { and, sql, type Sql } from './sql';
import { encodeCursor, keysetPage } from '../pagination';

/** A page request: keyset (`cursor`, newest first by MFID) or offset (`offset`). */
export interface PageRequest {
  limit: number;
  cursor?: string;
  offset?: number;
}

/**
 * A keyset page in another order than newest first: the sort key (an SQL expression; rows order
 * by whether it is null, then it, then the MFID, all in `direction` but nulls last), the condition
 * of the rows after the request's cursor, and the cursor of a row from its key (as text) and MFID.
 */
export interface PageOrder {
  key: string;
  direction: 'asc' | 'desc';
  after: Sql | null;
  cursor: (key: string | null, uniqueId: string) => string;
}

/** An offset page of a list with integer keys (deletion requests, join requests...). */
export interface OffsetPage<T> {
  items: T[];
  total: number;
}

export interface RowPage<T> {
  items: T[];
  nextCursor: string | null;
  /** the value of the `extra` column per item MFID, when one was selected */
  extras: Map<string, unknown>;
  /** in another order than newest first: each item's cursor by MFID */
  cursors?: Map<string, string>;
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

/**
 * One page of `select <alias>.* from <table> <alias> where <where>`, newest first by MFID,
 * mapped to managed entities. `extra` adds one computed column, returned in `extras`. A
 * `driver` (newest first only) says where the walk may start from.
 */
export async function selectPage<T extends { uniqueId: string }>(
  em: EntityManager,
  entity: EntityName<T>,
  table: string,
  alias: string,
  where: Sql,
  page: PageRequest,
  extra: Sql = sql('null'),
  order?: PageOrder,
  driver?: PageDriver,
): Promise<RowPage<T>> {
  let rows: (Record<string, unknown> & { _extra: unknown; _key: string | null; _walk?: string })[];
  if (order) {
    const full = and(where, order.after);
    rows = await rawQuery(
      em,
      `select ${alias}.*, ${extra.sql} as _extra, (${order.key})::text as _key from ${table} ${alias} where ${full.sql}
       order by (${order.key}) is null, ${order.key} ${order.direction}, ${alias}.unique_id ${order.direction}
       limit ? offset ?`,
      [...extra.params, ...full.params, page.limit + 1, page.offset ?? 0],
    );
  } else {
    const { source, order: walk } = newestFirst(table, alias, where, page.cursor, extra, driver);
    rows = await rawQuery(
      em,
      `select ${alias}.*, null as _key from (${source.sql}) ${alias} order by ${walk} desc limit ? offset ?`,
      [...source.params, page.limit + 1, page.offset ?? 0],
    );
  }
  const extras = new Map<string, unknown>();
  const items = rows.map(({ _extra, _key, _walk, ...columns }) => {
    const item = em.map(entity, columns as EntityDictionary<T>);
    extras.set(item.uniqueId, _extra);
    return item;
  });
  const paged = keysetPage(items, page.limit);
  if (!order) return { ...paged, extras };
  const cursors = new Map(
    paged.items.map((item, i) => [item.uniqueId, order.cursor(rows[i]._key, item.uniqueId)]),
  );
  const last = paged.items.at(-1);
  return {
    ...paged,
    nextCursor: paged.nextCursor && last ? (cursors.get(last.uniqueId) ?? null) : null,
    cursors,
    extras,
  };
}

/** What a projected page selects from each row of the page (`<alias>` and `<alias>._extra`). */
export interface Projection {
  /** the select list (besides `_id`, the MFID) */
  columns: string;
  /** joins to other tables, by their own aliases */
  joins: string;
}

/** A page of projected rows. */
export interface ProjectedPage<R> {
  rows: (R & { _id: string })[];
  nextCursor: string | null;
  /** the total of the count passed along, when one was */
  total?: Total;
}

/**
 * One page as {@link selectPage} selects it (the same condition, keyset and order, newest
 * first), projected by `projection` over the page's rows instead of mapped to entities: each
 * row has `_id` (the MFID) and the projection's columns. The page is the inner query, so its
 * plan is the entity page's; the joins see only the page's rows. `count` runs within the same
 * statement (an empty page still returns it), its result as `total`.
 */
export async function selectProjectedPage<R extends object>(
  em: EntityManager,
  table: string,
  alias: string,
  where: Sql,
  page: PageRequest,
  extra: Sql,
  projection: Projection,
  driver?: PageDriver,
  count?: TotalQuery,
): Promise<ProjectedPage<R>> {
  const { source, order } = newestFirst(table, alias, where, page.cursor, extra, driver);
  const paged = `select ${alias}.unique_id as _id, ${projection.columns}
     from (select * from (${source.sql}) ${alias} order by ${order} desc limit ? offset ?) ${alias}
     ${projection.joins}`;
  const params = [...source.params, page.limit + 1, page.offset ?? 0];
  let rows: (R & { _id: string })[];
  let total: Total | undefined;
  if (count) {
    // one row of the count, joined to the page's rows (or, on an empty page, to a null row)
    const joined = await rawQuery<R & { _id: string | null; _n: number }>(
      em,
      `select p.*, c.n as _n from (${count.sql.sql}) c left join (${paged}) p on true order by p._id desc`,
      [...count.sql.params, ...params],
    );
    total = count.total(joined[0]._n);
    rows = joined.filter((r): r is R & { _id: string; _n: number } => r._id !== null);
  } else {
    rows = await rawQuery(em, `${paged} order by ${alias}.unique_id desc`, params);
  }
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return {
    rows: items,
    nextCursor: rows.length > page.limit && last ? encodeCursor(last._id) : null,
    total,
  };
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
