import { validationError } from '../errors';
import { isMfid } from '../ids';
import type { PageOrder } from './page';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from './raw';
import { sql, type Sql } from './sql';
import { cursorKey, encodeKeyCursor } from '../cursor';

/** A column a list can be sorted by, and how its values compare. */
export interface SortColumn {
  column: string;
  type: 'text' | 'timestamptz' | 'bigint';
  /**
   * the column is never null (`not null` in the schema): the order is then `key, MFID` and the
   * cursor condition a row comparison, which an index on (key, MFID) serves in both directions
   */
  notNull?: boolean;
}

/** The order of a list: one named column, then the MFID. */
export interface ColumnOrder<F extends string> {
  field: F;
  direction: 'asc' | 'desc';
}

/** A timestamp as PostgreSQL writes it as text (what a cursor carries: every microsecond). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:\d{2})?|Z)$/;

/** A cursor's content: the order it was issued for and the last row's key. */
type Key = [field: string, direction: 'asc' | 'desc', isNull: boolean, value: string, id: string];

function encode(key: Key): string {
  return encodeKeyCursor('o', key);
}

function decode(cursor: string, order: ColumnOrder<string>, { type, notNull }: SortColumn): Key {
  const bad = () => validationError('after', 'is not a cursor this server issued for this order');
  const key = cursorKey('o', cursor);
  if (
    key === null ||
    key.length !== 5 ||
    key[0] !== order.field ||
    key[1] !== order.direction ||
    typeof key[2] !== 'boolean' ||
    typeof key[3] !== 'string' ||
    key[3].length > 10_000 ||
    !isMfid(key[4])
  )
    throw bad();
  const [, , isNull, value] = key as Key;
  // a column that is never null has no empty values to page through
  if (isNull && notNull) throw bad();
  if (!isNull && type === 'bigint' && !/^-?\d{1,19}$/.test(value)) throw bad();
  if (!isNull && type === 'timestamptz' && !TIMESTAMP.test(value)) throw bad();
  return key as Key;
}

/** The sort key of a column over the table `alias` reads: names without regard to case. */
function keyOf(alias: string, { column, type }: SortColumn): string {
  return type === 'text' ? `lower(${alias}.${column})` : `${alias}.${column}`;
}

/** A row's place in a sorted list: its key as PostgreSQL writes it (or none) and its MFID. */
export interface ColumnAnchor {
  isNull: boolean;
  value: string;
  id: string;
}

/**
 * Where a sorted list's window around `mfid` starts (`anchor_mfid`): that row's key, read
 * through the list's own condition `where` (visibility and filters), so a record the caller
 * cannot read, or that the list does not hold, gives the same 422 as one that does not exist.
 */
export async function columnAnchor<F extends string>(
  em: EntityManager,
  table: string,
  alias: string,
  where: Sql,
  columns: Record<F, SortColumn>,
  order: ColumnOrder<F>,
  mfid: string,
): Promise<ColumnAnchor> {
  const bad = () => validationError('anchor_mfid', 'is not the MFID of a record of this list');
  if (!isMfid(mfid)) throw bad();
  const key = keyOf(alias, columns[order.field]);
  const rows = await rawQuery<{ k: string | null }>(
    em,
    `select (${key})::text as k from ${table} ${alias} where ${alias}.unique_id = ? and ${where.sql}`,
    [mfid, ...where.params],
  );
  if (rows.length === 0) throw bad();
  const k = rows[0].k;
  return { isNull: k === null, value: k ?? '', id: mfid };
}

/**
 * Sorting a dataset or sample list by one column, with keyset paging that stays correct under
 * the sort: rows order by (key is null), key, MFID — empty values last in both directions, the
 * MFID breaking ties, text without regard to case — and a cursor holds the last row's key as
 * PostgreSQL writes it (column, null flag, value, MFID), so the next page is a range condition,
 * never an offset. `columns` names the sortable columns of the table `alias` reads.
 *
 * A column that is never null (`notNull`) orders by key, MFID alone and its cursor condition is
 * the row comparison `(key, MFID) > (?, ?)` (`<` descending): an index on (key, unique_id) then
 * gives the page in order, walked forwards or backwards, and stops at the page. A column that
 * may be null is read in two parts (`PageOrder.split`): the rows with a key past the cursor (the
 * same row comparison, the same index) and the rows without one (by MFID), each limited to the
 * page — a single `(key is null), key` order matches no index. The same cursors serve all forms.
 * With `anchor` (and no cursor), the page starts at that row, included.
 */
export function columnPageOrder<F extends string>(
  alias: string,
  columns: Record<F, SortColumn>,
  order: ColumnOrder<F>,
  cursor?: string,
  anchor?: ColumnAnchor,
): PageOrder {
  const sort = columns[order.field];
  const key = keyOf(alias, sort);
  const id = `${alias}.unique_id`;
  const cmp = order.direction === 'asc' ? '>' : '<';
  // where the page starts: after the cursor's row, or at the anchor (included)
  let at: (ColumnAnchor & { cmp: string }) | null = null;
  if (anchor) at = { ...anchor, cmp: `${cmp}=` };
  else if (cursor !== undefined && cursor !== '') {
    const [, , isNull, value, last] = decode(cursor, order, sort);
    at = { isNull, value, id: last, cmp };
  }
  // (key, MFID) past `at`: a range of an index on (key, unique_id); false for an empty key
  const past = (a: ColumnAnchor & { cmp: string }) =>
    sql(`(${key}, ${id}) ${a.cmp} (?::${sort.type}, ?)`, a.value, a.id);
  const base = {
    key,
    direction: order.direction,
    cursor: (value: string | null, uniqueId: string) =>
      encode([order.field, order.direction, value === null, value ?? '', uniqueId]),
  };
  if (sort.notNull) return { ...base, notNull: true, after: at ? past(at) : null };
  // the rows with a key, then those without (after all keys both ways, by MFID)
  const present = at === null ? sql(`${key} is not null`) : at.isNull ? null : past(at);
  const empty = at?.isNull ? sql(`${key} is null and ${id} ${at.cmp} ?`, at.id) : sql(`${key} is null`);
  return { ...base, after: null, split: { present, empty } };
}
