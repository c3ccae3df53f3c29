import { validationError } from '../../core/errors';

/*
 * An embargo date's form, apart from the embargo rule (embargo.ts) so that the web page's
 * publish form checks it with the service's own code (web/src/pages/publication-form.ts).
 */

/** The latest embargo date accepted (a date after it is a typo, not an embargo). */
export const EMBARGO_MAX = new Date('2200-01-01T00:00:00Z');

/**
 * An embargo date as a client sends it: null (none), or an ISO 8601 date-time with its offset
 * (`2027-01-01T00:00:00Z`) or a date (`2027-01-01`, midnight UTC). 422 naming `field` otherwise.
 * A date in the past is accepted (the files are simply open).
 */
export function parseEmbargoDate(raw: unknown, field: string): Date | null {
  if (raw === null) return null;
  const bad = () =>
    validationError(
      field,
      'must be null or an ISO 8601 date-time with an offset (2027-01-01T00:00:00Z) or a date',
    );
  if (typeof raw !== 'string' && !(raw instanceof Date)) throw bad();
  if (typeof raw === 'string') {
    const text = raw.trim();
    const ok =
      /^\d{4}-\d{2}-\d{2}$/.test(text) ||
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(text);
    if (!ok) throw bad();
  }
  const when = raw instanceof Date ? raw : new Date(raw.trim());
  if (Number.isNaN(when.getTime())) throw bad();
  if (when.getTime() >= EMBARGO_MAX.getTime() || when.getUTCFullYear() < 1900)
    throw validationError(field, 'must be between 1900 and 2200');
  return when;
}
