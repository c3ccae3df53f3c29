import { validationError } from '../../core/errors';
import { assertStorableJson } from '../../core/json-guard';

export type MetadataDocument = Record<string, unknown>;

export function isPlainObject(value: unknown): value is MetadataDocument {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Merges `patch` into `base` on top-level keys (spec 1.5: new keys are added and existing keys
 * take the new value): a key of `patch` replaces the whole value `base` holds under it, so two
 * writes are never mixed inside one nested object.
 */
export function mergeTopLevel(base: MetadataDocument, patch: MetadataDocument): MetadataDocument {
  return { ...base, ...patch };
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
