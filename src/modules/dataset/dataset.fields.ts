import { type FieldProblem } from '../../core/errors';

/** The dataset fields an update may set (spec 2.1 rule 4), with their wire names and limits. */
export const UPDATABLE = {
  datasetName: { wire: 'dataset_name', max: 500 },
  measurement: { wire: 'measurement', max: 200 },
  dataType: { wire: 'data_type', max: 200 },
  dataFormat: { wire: 'data_format', max: 100 },
  sessionName: { wire: 'session_name', max: 200 },
  timestamp: { wire: 'timestamp', max: 64 },
} as const;
export type TextField = keyof typeof UPDATABLE;
export const TEXT_FIELDS = Object.keys(UPDATABLE) as TextField[];

const ISO_8601 =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** ISO 8601 dates and date-times (the forms clients send: date only, with or without zone). */
export function isIsoTimestamp(value: string): boolean {
  if (!ISO_8601.test(value)) return false;
  const [datePart] = value.split(/[T ]/);
  const [y, m, d] = datePart.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Wire names and length limits of a record's text fields (`timestamp` must be ISO 8601). */
export type TextSpec<K extends string> = Record<K, { wire: string; max: number }>;

/** Problems with the text fields of an input under `spec` (types, lengths, the timestamp format). */
export function checkTextSpec<K extends string>(
  spec: TextSpec<K>,
  input: Partial<Record<K, unknown>>,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const key of Object.keys(spec) as K[]) {
    const v = input[key];
    const { wire, max } = spec[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') problems.push({ field: wire, message: 'must be a string' });
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

/** Problems with the text fields of a dataset input. */
export function checkTextFields(input: Partial<Record<TextField, unknown>>): FieldProblem[] {
  return checkTextSpec(UPDATABLE, input);
}
