import { validationError } from '../errors';
import { isMfid } from '../ids';
import type { PageOrder } from './page';
import { sql, type Sql } from './sql';
import { cursorKey, encodeKeyCursor } from '../cursor';

/** A column a list can be sorted by, and how its values compare. */
export interface SortColumn {
  column: string;
  type: 'text' | 'timestamptz' | 'bigint';
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

function decode(cursor: string, order: ColumnOrder<string>, type: SortColumn['type']): Key {
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
  if (!isNull && type === 'bigint' && !/^-?\d{1,19}$/.test(value)) throw bad();
  if (!isNull && type === 'timestamptz' && !TIMESTAMP.test(value)) throw bad();
  return key as Key;
}

/**
 * Sorting a dataset or sample list by one column, with keyset paging that stays correct under
 * the sort: rows order by (key is null), key, MFID — empty values last in both directions, the
 * MFID breaking ties, text without regard to case — and a cursor holds the last row's key as
 * PostgreSQL writes it (column, null flag, value, MFID), so the next page is a range condition,
 * never an offset. `columns` names the sortable columns of the table `alias` reads.
 */
export function columnPageOrder<F extends string>(
  alias: string,
  columns: Record<F, SortColumn>,
  order: ColumnOrder<F>,
  cursor?: string,
): PageOrder {
  const { column, type } = columns[order.field];
  // names sort as people read them, without regard to case
  const key = type === 'text' ? `lower(${alias}.${column})` : `${alias}.${column}`;
  const id = `${alias}.unique_id`;
  const cmp = order.direction === 'asc' ? '>' : '<';
  let after: Sql | null = null;
  if (cursor !== undefined && cursor !== '') {
    const [, , isNull, value, last] = decode(cursor, order, type);
    after = isNull
      ? sql(`(${key} is null and ${id} ${cmp} ?)`, last)
      : sql(
          `(${key} is null or ${key} ${cmp} ?::${type} or (${key} = ?::${type} and ${id} ${cmp} ?))`,
          value,
          value,
          last,
        );
  }
  return {
    key,
    direction: order.direction,
    after,
    cursor: (value, uniqueId) =>
      encode([order.field, order.direction, value === null, value ?? '', uniqueId]),
  };
}
