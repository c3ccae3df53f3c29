import { validationError } from '../../core/errors';
import { isMfid } from '../../core/ids';
import type { PageOrder } from '../../core/db/page';
import { sql, type Sql } from '../../core/db/sql';

/**
 * Sorting a dataset list by one column, with keyset paging that stays correct under the sort:
 * rows order by (key is null), key, MFID — empty values last in both directions, the MFID
 * breaking ties, text without regard to case — and a cursor holds the last row's key as
 * PostgreSQL writes it (column, null flag, value, MFID), so the next page is a range condition,
 * never an offset.
 */
export type DatasetOrderField =
  'creationTime' | 'modificationTime' | 'datasetName' | 'measurement' | 'dataType' | 'size';

/** The order of a dataset list: one column, then the MFID. */
export interface DatasetOrder {
  field: DatasetOrderField;
  direction: 'asc' | 'desc';
}

const COLUMNS: Record<DatasetOrderField, { column: string; type: 'text' | 'timestamptz' | 'bigint' }> = {
  creationTime: { column: 'creation_time', type: 'timestamptz' },
  modificationTime: { column: 'modification_time', type: 'timestamptz' },
  datasetName: { column: 'dataset_name', type: 'text' },
  measurement: { column: 'measurement', type: 'text' },
  dataType: { column: 'data_type', type: 'text' },
  size: { column: 'size', type: 'bigint' },
};

/** A timestamp as PostgreSQL writes it as text (what a cursor carries: every microsecond). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:\d{2})?|Z)$/;

/** A cursor's content: the order it was issued for and the last row's key. */
type Key = [
  field: DatasetOrderField,
  direction: DatasetOrder['direction'],
  isNull: boolean,
  value: string,
  id: string,
];

function encode(key: Key): string {
  return Buffer.from(`o:${JSON.stringify(key)}`, 'utf8').toString('base64url');
}

function decode(cursor: string, order: DatasetOrder): Key {
  const bad = () => validationError('after', 'is not a cursor this server issued for this order');
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith('o:')) throw bad();
  let key: unknown;
  try {
    key = JSON.parse(text.slice(2));
  } catch {
    throw bad();
  }
  if (
    !Array.isArray(key) ||
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
  const { type } = COLUMNS[order.field];
  if (!isNull && type === 'bigint' && !/^-?\d{1,19}$/.test(value)) throw bad();
  if (!isNull && type === 'timestamptz' && !TIMESTAMP.test(value)) throw bad();
  return key as Key;
}

/** The SQL order and keyset condition of a dataset page sorted by `order`, after `cursor`. */
export function datasetPageOrder(alias: string, order: DatasetOrder, cursor?: string): PageOrder {
  const { column, type } = COLUMNS[order.field];
  // names sort as people read them, without regard to case
  const key = type === 'text' ? `lower(${alias}.${column})` : `${alias}.${column}`;
  const id = `${alias}.unique_id`;
  const cmp = order.direction === 'asc' ? '>' : '<';
  let after: Sql | null = null;
  if (cursor !== undefined && cursor !== '') {
    const [, , isNull, value, last] = decode(cursor, order);
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
