import { validationError } from './errors';
import { isMfid } from './ids';

/**
 * Slugs of projects and instruments: 2 to 64 letters, digits, `_` and `-`, starting with a
 * letter or digit, and never shaped like an MFID (lookups accept both). Validated only on create
 * and rename: existing slugs outside this range stay readable.
 */
const SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{1,63}$/;

export function validateSlug(field: string, value: unknown): string {
  if (typeof value !== 'string' || !SLUG.test(value)) {
    throw validationError(field, 'must be 2-64 letters, digits, "_" or "-", starting with a letter or digit');
  }
  if (isMfid(value)) throw validationError(field, 'must not look like an MFID');
  return value;
}

/** A slug derived from a display name (`"Titan X 80-300"` -> `"titan-x-80-300"`). */
export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 56);
  return base.length >= 2 ? base : `instrument-${base}`.replace(/-$/, '');
}

/**
 * The filter of an exact, case-insensitive slug lookup (`?project_id=`, `?instrument_id=`):
 * ILIKE on the value with its wildcards escaped, so `a_b` matches only `a_b` (and `A_B`).
 */
export function slugEquals(value: string): { $ilike: string } {
  return { $ilike: value.replace(/[\\%_]/g, (c) => `\\${c}`) };
}
