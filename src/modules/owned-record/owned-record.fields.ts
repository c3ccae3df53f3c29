import type { FieldProblem } from '../../core/errors';

/**
 * Wire names and length limits of a record's text fields (`timestamp` must be ISO 8601); `name`
 * marks the record's name, which must not be blank (docs/web-app.md, "Names are never blank").
 */
export type TextSpec<K extends string> = Record<K, { wire: string; max: number; name?: true }>;

/** Values of a record's text fields, as inputs carry them (null clears a field). */
export type TextValues<K extends string> = Partial<Record<K, string | null>>;

const ISO_8601 =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** The message of a blank name (datasets, samples, projects, instruments alike). */
export const NAME_BLANK = 'must not be blank';

/** Whether `v` is a string with no visible character (a blank name). */
export function isBlank(v: unknown): boolean {
  return typeof v === 'string' && v.trim() === '';
}

/** ISO 8601 dates and date-times (the forms clients send: date only, with or without zone). */
export function isIsoTimestamp(value: string): boolean {
  if (!ISO_8601.test(value)) return false;
  const [datePart] = value.split(/[T ]/);
  const [y, m, d] = datePart.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** The keys of `spec`, in their declared order. */
export function textKeys<K extends string>(spec: TextSpec<K>): K[] {
  return Object.keys(spec) as K[];
}

/**
 * Problems with the text fields of an input under `spec` (types, lengths, the timestamp format,
 * a blank name; on an update, `null` for a name too: a name is never cleared).
 */
export function checkTextSpec<K extends string>(
  spec: TextSpec<K>,
  input: Partial<Record<K, unknown>>,
  update = false,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const key of textKeys(spec)) {
    const v = input[key];
    const { wire, max, name } = spec[key];
    if (name && update && v === null) {
      problems.push({ field: wire, message: NAME_BLANK });
      continue;
    }
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') problems.push({ field: wire, message: 'must be a string' });
    else if (name && v.trim() === '') problems.push({ field: wire, message: NAME_BLANK });
    else if (v.length > max) problems.push({ field: wire, message: `must be at most ${max} characters` });
    else if (key === 'timestamp' && v !== '' && !isIsoTimestamp(v)) {
      problems.push({
        field: wire,
        message: 'must be an ISO 8601 date or date-time, e.g. 2026-01-17T01:31:26Z',
      });
    }
  }
  return problems;
}

/** The text fields of `spec` that `input` sets (null included), and nothing else. */
export function textValues<K extends string>(spec: TextSpec<K>, input: TextValues<K>): TextValues<K> {
  const out: TextValues<K> = {};
  for (const key of textKeys(spec)) if (input[key] !== undefined) out[key] = input[key];
  return out;
}
