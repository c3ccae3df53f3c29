import type { RequestContext } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import { sql, type Sql } from '../../core/db/sql';
import { validationError } from '../../core/errors';
import { cursorKey, encodeKeyCursor } from '../../core/cursor';

/** How the buckets of one field are ordered: by value, by label, or by count (then by value). */
export const FACET_SORTS = ['value', 'label', 'count'] as const;
export type FacetSort = (typeof FACET_SORTS)[number];

/** The most buckets one page may ask for, and what it gets when it names none (the 3.2 client's). */
export const FIELD_FACET_MAX = 1000;
export const FIELD_FACET_DEFAULT = 100;

/** The directory record a field's values name (its label and typed reference), or none. */
export type FacetRef = 'owner' | 'project' | 'instrument' | null;

/** A field the records can be grouped by: its column (of the kind's table) and what its values name. */
export interface FacetFieldSpec {
  column: string;
  ref: FacetRef;
}

/** One page of buckets of one field: where it starts, how many, in which order. */
export interface FieldFacetRequest {
  field: string;
  limit: number;
  sort: FacetSort;
  direction: 'asc' | 'desc';
  /** `nextCursor` of the previous page, as issued */
  cursor?: string;
}

/** One value of the field and how many records of the result set carry it. */
export interface FieldFacetBucket {
  /** what the list filter takes: the text, or the MFID of the owner, project or instrument */
  value: string;
  /** the value itself, or the owner's username, the project's title (else slug), the instrument's name */
  label: string | null;
  count: number;
}

export interface FieldFacetPage {
  field: string;
  items: FieldFacetBucket[];
  /** the cursor of the following page, null on the last one */
  nextCursor: string | null;
}

/** The label of a bucket `g` (its `value`): the value itself, or the name of the record it names. */
const LABELS: Record<NonNullable<FacetRef> | 'none', { label: string; join: string }> = {
  none: { label: 'g.value', join: '' },
  owner: { label: 'u.username', join: 'left join app_user u on u.unique_id = g.value' },
  project: {
    label: 'coalesce(p.title, p.project_id)',
    join: 'left join project p on p.unique_id = g.value',
  },
  instrument: {
    label: 'i.instrument_name',
    join: 'left join instrument i on i.unique_id = g.value',
  },
};

/** The sort key of a labelled bucket `b`; a bucket without a label sorts by its value. */
const KEYS: Record<FacetSort, string> = {
  value: 'b.value',
  label: 'coalesce(b.label, b.value)',
  count: 'b.n',
};

/** A cursor's content: the page order it was issued for and the last bucket's key and value. */
type Key = [field: string, sort: FacetSort, direction: 'asc' | 'desc', key: string | number, value: string];

function encode(key: Key): string {
  return encodeKeyCursor('f', key);
}

/**
 * The last bucket a cursor names; 422 for anything this server did not issue for this field and
 * order (the key's type checked too). A cursor only positions the page: the counts are always
 * those of the caller's own result set.
 */
function decode(cursor: string, req: FieldFacetRequest): [string | number, string] {
  const bad = () => validationError('cursor', 'is not a cursor this server issued for this field and order');
  const key = cursorKey('f', cursor);
  if (
    key === null ||
    key.length !== 5 ||
    key[0] !== req.field ||
    key[1] !== req.sort ||
    key[2] !== req.direction ||
    typeof key[4] !== 'string' ||
    key[4].length > 10_000 ||
    (req.sort === 'count'
      ? !Number.isSafeInteger(key[3]) || (key[3] as number) < 0
      : typeof key[3] !== 'string' || key[3].length > 10_000)
  )
    throw bad();
  return [key[3] as string | number, key[4]];
}

/**
 * One page of the buckets of a field: `groups` gives the result set's rows `(value, n)` (one per
 * value present, `n` records carrying it; the caller's visibility and filters already applied),
 * here labelled, ordered by `req.sort` then value (both in `req.direction`) and cut after the
 * cursor's bucket (keyset: a range condition on the ordered key, never an offset).
 */
export async function fieldFacetPage(
  ctx: RequestContext,
  spec: FacetFieldSpec,
  groups: Sql,
  req: FieldFacetRequest,
): Promise<FieldFacetPage> {
  const { label, join } = LABELS[spec.ref ?? 'none'];
  const key = KEYS[req.sort];
  const cmp = req.direction === 'asc' ? '>' : '<';
  let after = sql('true');
  if (req.cursor !== undefined && req.cursor !== '') {
    const [last, value] = decode(req.cursor, req);
    after = sql(
      `(${key}, b.value) ${cmp} (?::${req.sort === 'count' ? 'int' : 'text'}, ?::text)`,
      last,
      value,
    );
  }
  const rows = await rawQuery<{ value: string; label: string | null; n: number; k: string | number }>(
    ctx.em,
    `with g as (${groups.sql}),
     b as (select g.value::text as value, (${label})::text as label, g.n::int as n from g ${join})
     select b.value, b.label, b.n, ${key} as k from b where ${after.sql}
     order by ${key} ${req.direction}, b.value ${req.direction} limit ?`,
    [...groups.params, ...after.params, req.limit + 1],
  );
  const items = rows.slice(0, req.limit);
  const last = rows.length > req.limit ? items.at(-1) : undefined;
  return {
    field: req.field,
    items: items.map((r) => ({ value: r.value, label: r.label, count: r.n })),
    nextCursor: last ? encode([req.field, req.sort, req.direction, last.k, last.value]) : null,
  };
}

/** The groups of `column` among the rows of `from` (an aliased table) satisfying `where`. */
export function rowGroups(from: string, column: string, where: Sql): Sql {
  return {
    sql: `select ${column} as value, count(*) as n from ${from} where (${where.sql}) and ${column} is not null group by 1`,
    params: where.params,
  };
}
