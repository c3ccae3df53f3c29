import { validationError } from './errors';

/** An integer id of a list with integer keys (deletion requests, join requests...). */
export function parseIntegerId(raw: unknown, field = 'id'): number {
  const text = String(raw);
  // any id an integer column can hold: a made-up id in range is simply not found
  if (!/^\d{1,10}$/.test(text) || Number(text) > 2_147_483_647)
    throw validationError(field, 'must be an integer');
  return Number(text);
}

/** An optional free-text input (reasons, reviewer notes): null when absent or empty. */
export function optionalText(raw: unknown, field: string, max = 5000): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string') throw validationError(field, 'must be a string');
  if (raw.length > max) throw validationError(field, `must be at most ${max} characters`);
  return raw;
}
