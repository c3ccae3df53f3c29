import { validationError } from './errors';

/** An integer id of a list with integer keys (deletion requests, join requests...). */
export function parseIntegerId(raw: unknown, field = 'id'): number {
  const text = String(raw);
  if (!/^\d{1,9}$/.test(text)) throw validationError(field, 'must be an integer');
  return Number(text);
}

/** An optional free-text input (reasons, reviewer notes): null when absent or empty. */
export function optionalText(raw: unknown, field: string, max = 5000): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string') throw validationError(field, 'must be a string');
  if (raw.length > max) throw validationError(field, `must be at most ${max} characters`);
  return raw;
}
