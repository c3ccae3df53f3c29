/** Limits that keep parsed metadata a reasonable JSON document. */
export const MAX_ARRAY_ITEMS = 1000;
const MAX_STRING = 10_000;
const MAX_DEPTH = 32;
/** byte arrays longer than this are summarised, not listed */
const MAX_LISTED_BYTES = 64;

type TypedArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

function cleanString(s: string): string {
  // PostgreSQL's jsonb cannot hold U+0000
  const text = s.includes('\u0000') ? s.split('\u0000').join('') : s;
  return text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}…` : text;
}

function bytesValue(bytes: Uint8Array, depth: number): unknown {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  // text stored as bytes (HDF5 and TIFF strings often are): keep it as text
  // eslint-disable-next-line no-control-regex
  if (bytes.length && !text.includes('\uFFFD') && !/[\u0001-\u0008\u000e-\u001f]/.test(text)) {
    return cleanString(text);
  }
  if (bytes.length > MAX_LISTED_BYTES) return `<${bytes.length} bytes>`;
  return Array.from(bytes, (b) => toJsonSafe(b, depth + 1));
}

/**
 * Turns whatever a parser produced into plain JSON the metadata store accepts: NaN and
 * infinities become null, big integers numbers (or strings when they do not fit), dates ISO
 * strings, byte arrays text (or a size summary), typed arrays lists; U+0000 is dropped from
 * strings and keys; lists are cut to {@link MAX_ARRAY_ITEMS} items and strings to 10 000
 * characters; nesting deeper than 32 levels becomes null.
 */
export function toJsonSafe(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return null;
  switch (typeof value) {
    case 'string':
      return cleanString(value);
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'boolean':
      return value;
    case 'bigint':
      return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return null;
    default:
      break;
  }
  if (value === null) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof ArrayBuffer) return bytesValue(new Uint8Array(value), depth);
  if (value instanceof Uint8Array) return bytesValue(value, depth);
  if (ArrayBuffer.isView(value)) {
    const items = Array.from(
      (value as TypedArray).subarray(0, MAX_ARRAY_ITEMS) as ArrayLike<number | bigint>,
    );
    return items.map((v) => toJsonSafe(v, depth + 1));
  }
  if (Array.isArray(value)) return value.slice(0, MAX_ARRAY_ITEMS).map((v) => toJsonSafe(v, depth + 1));
  if (value instanceof Map) return toJsonSafe(Object.fromEntries(value), depth);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    out[cleanString(key)] = toJsonSafe(v, depth + 1);
  }
  return out;
}

/** {@link toJsonSafe} for a whole metadata document. */
export function toMetadata(doc: Record<string, unknown>): Record<string, unknown> {
  return toJsonSafe(doc) as Record<string, unknown>;
}
