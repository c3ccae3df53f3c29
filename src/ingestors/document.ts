import { isPlainObject } from '../modules/metadata-store/metadata-document';

/** JSON and YAML documents are read whole, up to this size. */
export const MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;

/**
 * A parsed JSON or YAML document as metadata: an object is merged as it is (nested objects stay
 * nested, so its values are reachable by dot-separated metadata paths; merges replace whole
 * top-level keys); an array or a scalar goes under `data`.
 */
export function documentMetadata(doc: unknown): Record<string, unknown> {
  return isPlainObject(doc) ? doc : { data: doc };
}
