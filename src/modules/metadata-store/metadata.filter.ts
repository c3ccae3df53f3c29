import { validationError } from '../../core/errors';
import { and, sql, type Sql } from '../../core/db/sql';
import { PLAIN, quantityOf, stringIndexable, STRINGS_OVERFLOW } from './metadata-quantities';

export const METADATA_OPERATORS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'contains', 'exists'] as const;
export type MetadataOperator = (typeof METADATA_OPERATORS)[number];

/** A typed condition on one path of the scientific metadata. */
export interface MetadataCondition {
  /** dot-separated keys, e.g. `stage.temperature`; arrays on the way are searched element-wise */
  path: string;
  op: MetadataOperator;
  /** a JSON scalar; for `exists`, false means "does not exist" (default true) */
  value?: unknown;
}

const MAX_CONDITIONS = 10;
const MAX_SEGMENTS = 16;
const MAX_PATH = 500;

const COMPARISON: Partial<Record<MetadataOperator, string>> = {
  eq: '==',
  lt: '<',
  lte: '<=',
  gt: '>',
  gte: '>=',
};

function pathExpression(path: unknown, field: string): string {
  if (typeof path !== 'string' || path.trim() === '') throw validationError(field, 'is required');
  if (path.length > MAX_PATH) throw validationError(field, `must be at most ${MAX_PATH} characters`);
  const segments = path.split('.');
  if (segments.length > MAX_SEGMENTS || segments.some((s) => s === '')) {
    throw validationError(field, `must be 1 to ${MAX_SEGMENTS} non-empty keys separated by "."`);
  }
  // quoted member accessors: any key text is safe inside a JSON-style string literal
  return '$' + segments.map((s) => `.${JSON.stringify(s)}`).join('');
}

function scalar(value: unknown, field: string): string {
  if (value === null) return 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number' && Number.isFinite(value)) return JSON.stringify(value);
  throw validationError(field, 'must be a string, number, boolean or null');
}

/**
 * The SQL/JSON path (jsonpath) of one condition. Paths run in lax mode: arrays on the way are
 * searched element-wise; a comparison between different JSON types is simply false.
 * - eq, lt, lte, gt, gte: the value at the path compares so with `value`; strings compare as
 *   text, numbers as numbers.
 * - ne: the path exists and no value at it equals `value` (handled by the caller as exists and
 *   not eq).
 * - contains: a string value (or a string element of an array) contains `value` as a
 *   case-insensitive substring; for a non-string `value`, an array element equals it.
 * - exists: the path exists (`value: false` inverts it; handled by the caller).
 */
export function conditionPath(c: MetadataCondition, index = 0): string {
  const prefix = `metadata[${index}]`;
  const target = pathExpression(c.path, `${prefix}.path`);
  if (c.op === 'exists') {
    if (c.value !== undefined && c.value !== null && typeof c.value !== 'boolean') {
      throw validationError(`${prefix}.value`, 'must be true or false for exists');
    }
    return target;
  }
  if (c.value === undefined) throw validationError(`${prefix}.value`, `is required for ${c.op}`);
  const value = scalar(c.value, `${prefix}.value`);
  if (c.op === 'contains') {
    if (typeof c.value === 'string') return `${target} ? (@ like_regex ${value} flag "iq")`;
    return `${target} ? (@ == ${value})`;
  }
  const operator = COMPARISON[c.op];
  if (!operator) throw validationError(`${prefix}.op`, `must be one of ${METADATA_OPERATORS.join(', ')}`);
  return `${target} ? (@ ${operator} ${value})`;
}

/**
 * A condition a side index answers: `match`, a condition on the rows (aliased `v`) of `table` —
 * `metadata_value` for numbers and quantities, `metadata_string` for string equality. For a
 * string, `overflow` is its jsonpath, which decides for the documents with more strings than
 * the index holds (marked with `STRINGS_OVERFLOW`).
 */
export interface IndexedCondition {
  table: 'metadata_value' | 'metadata_string';
  match: Sql;
  overflow?: string;
}

/** The marker row of a document whose strings overflow the index (`metadata_string v`). */
export const OVERFLOW_MATCH = `v.path = '${STRINGS_OVERFLOW.path}' and v.str = '${STRINGS_OVERFLOW.str}'`;

/**
 * The condition on a resource row aliased `alias` (its `unique_id`): an index probe that
 * returns at the first match (a scalar subquery the planner does not turn into a join over
 * every match) and, for a string, the jsonpath of a marked document.
 */
export function indexedProbe(alias: string, c: IndexedCondition): Sql {
  const own = sql(
    `coalesce((select true from ${c.table} v where v.resource_id = ${alias}.unique_id and ${c.match.sql} limit 1), false)`,
    ...c.match.params,
  );
  if (c.overflow === undefined) return own;
  // `@\\?` keeps the driver from reading the operator's `?` as a placeholder
  return sql(
    `(${own.sql} or coalesce((select true from ${c.table} v join scientific_metadata m
       on m.resource_id = v.resource_id where v.resource_id = ${alias}.unique_id and ${OVERFLOW_MATCH}
       and m.data @\\? ?::jsonpath limit 1), false))`,
    ...own.params,
    c.overflow,
  );
}

/** Metadata conditions sorted by what answers them. */
export interface ClassifiedConditions {
  indexed: IndexedCondition[];
  /** jsonpath conditions the document must satisfy */
  positive: string[];
  /** jsonpath conditions the document must not satisfy */
  negative: string[];
}

/**
 * Validates the conditions and sorts them: numeric and unit-aware comparisons and string
 * equality to the side indexes, the rest to jsonpath over the document.
 */
export function classifyConditions(conditions: readonly MetadataCondition[]): ClassifiedConditions {
  if (conditions.length > MAX_CONDITIONS) {
    throw validationError('metadata', `at most ${MAX_CONDITIONS} conditions`);
  }
  const out: ClassifiedConditions = { indexed: [], positive: [], negative: [] };
  conditions.forEach((c, i) => {
    if (!(METADATA_OPERATORS as readonly string[]).includes(c.op)) {
      throw validationError(`metadata[${i}].op`, `must be one of ${METADATA_OPERATORS.join(', ')}`);
    }
    if (c.op === 'ne') {
      out.positive.push(conditionPath({ path: c.path, op: 'exists' }, i));
      out.negative.push(conditionPath({ ...c, op: 'eq' }, i));
      return;
    }
    const indexed = typedCondition(c, i);
    if (indexed) {
      out.indexed.push(indexed);
      return;
    }
    const path = conditionPath(c, i);
    if (c.op === 'exists' && c.value === false) out.negative.push(path);
    else out.positive.push(path);
  });
  return out;
}

/**
 * The jsonpath conditions as conditions on the resource rows aliased `alias`. `@?` with a
 * jsonpath lets the GIN (jsonb_path_ops) index answer equality conditions.
 */
export function documentConditions(alias: string, c: ClassifiedConditions): Sql[] {
  // `@\\?` keeps the driver from reading the operator's `?` as a placeholder
  const parts: Sql[] = [];
  if (c.positive.length) {
    parts.push(
      sql(
        `exists (select 1 from scientific_metadata m where m.resource_id = ${alias}.unique_id and ${c.positive
          .map(() => 'm.data @\\? ?::jsonpath')
          .join(' and ')})`,
        ...c.positive,
      ),
    );
  }
  for (const path of c.negative) {
    parts.push(
      sql(
        `not exists (select 1 from scientific_metadata m where m.resource_id = ${alias}.unique_id and m.data @\\? ?::jsonpath)`,
        path,
      ),
    );
  }
  return parts;
}

/**
 * One condition on the resource rows aliased `alias` (their `unique_id`) that holds when their
 * metadata satisfies every condition, left to the planner; the collections use
 * `plannedMetadataCondition` (metadata-plan.ts), which decides where to start from.
 */
export function metadataCondition(alias: string, conditions: readonly MetadataCondition[]): Sql | null {
  if (conditions.length === 0) return null;
  const c = classifyConditions(conditions);
  return and(...c.indexed.map((i) => indexedProbe(alias, i)), ...documentConditions(alias, c));
}

const SQL_COMPARISON: Partial<Record<MetadataOperator, string>> = {
  lt: '<',
  lte: '<=',
  gt: '>',
  gte: '>=',
};

/**
 * A condition a side index answers:
 * - a string compared with eq: `metadata_string` (btree on path, string, resource), when the
 *   index can hold the string (`stringIndexable`; a longer one answers from the document);
 * - a number compared with eq, lt, lte, gt or gte: the JSON numbers at the path;
 * - a quantity (`{"value": 300, "unit": "K"}`, `{"v": …, "u": …}`, or for lt, lte, gt and gte
 *   the string `"300 K"`) compared with eq, lt, lte, gt or gte: the quantities at the path
 *   written in any unit of the same dimension, compared in SI (eq within a relative 1e-9).
 * As a condition on the index rows `v`; null for every other condition (the jsonpath over the
 * document answers those). A quantity object whose unit is unknown is refused.
 */
function typedCondition(c: MetadataCondition, index: number): IndexedCondition | null {
  if (
    c.op === 'eq' &&
    typeof c.value === 'string' &&
    typeof c.path === 'string' &&
    stringIndexable(c.path, c.value)
  ) {
    return {
      table: 'metadata_string',
      match: sql('v.path = ? and v.str = ?', c.path, c.value),
      overflow: conditionPath(c, index),
    };
  }
  const comparison = SQL_COMPARISON[c.op];
  if (!comparison && c.op !== 'eq') return null;
  const objectValue = c.value !== null && typeof c.value === 'object';
  let target: { num: number; dim: string } | null = null;
  if (typeof c.value === 'number' && Number.isFinite(c.value)) target = { num: c.value, dim: PLAIN };
  else if (objectValue || (typeof c.value === 'string' && comparison)) target = quantityOf(c.value);
  if (!target) {
    if (objectValue) {
      throw validationError(
        `metadata[${index}].value`,
        'must be a scalar or a quantity {"value": number, "unit": "<a known unit>"}',
      );
    }
    return null;
  }
  pathExpression(c.path, `metadata[${index}].path`);
  const test = comparison
    ? sql(`v.num ${comparison} ?`, target.num)
    : target.dim === PLAIN
      ? sql('v.num = ?', target.num)
      : sql(
          'v.num between ? and ?',
          target.num - 1e-9 * Math.abs(target.num),
          target.num + 1e-9 * Math.abs(target.num),
        );
  return {
    table: 'metadata_value',
    match: sql(`v.path = ? and v.dim = ? and ${test.sql}`, c.path, target.dim, ...test.params),
  };
}
