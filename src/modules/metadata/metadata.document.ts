import { validationError } from '../../core/errors';
import { assertStorableJson } from '../../core/json-guard';

export type MetadataDocument = Record<string, unknown>;

export function isPlainObject(value: unknown): value is MetadataDocument {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Merges `patch` into `base`: keys are added or updated one by one; where both sides hold an
 * object the merge recurses; anything else (arrays, scalars, null) replaces.
 */
export function deepMerge(base: MetadataDocument, patch: MetadataDocument): MetadataDocument {
  const out: MetadataDocument = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const current = out[key];
    out[key] = isPlainObject(value) && isPlainObject(current) ? deepMerge(current, value) : value;
  }
  return out;
}

/**
 * A metadata document must be a JSON object (not an array or a scalar), nested at most
 * MAX_JSON_DEPTH (100) levels deep, without NUL characters.
 */
export function checkDocument(value: unknown, field: string): MetadataDocument {
  if (!isPlainObject(value)) throw validationError(field, 'must be a JSON object');
  assertStorableJson(value, field);
  return value;
}

/** The optional metadata document of an input (null/undefined: none). */
export function checkOptionalDocument(value: unknown, field: string): MetadataDocument | null {
  return value === undefined || value === null ? null : checkDocument(value, field);
}

/** The value at a dot-separated path of a document, or null. */
export function valueAt(doc: MetadataDocument | null, path: string): unknown {
  let current: unknown = doc;
  for (const key of path.split('.')) {
    if (!isPlainObject(current) || !(key in current)) return null;
    current = current[key];
  }
  return current ?? null;
}
