import type { Unit } from 'mathjs';

/** One indexed value of a metadata document (table `metadata_value`). */
export interface IndexedValue {
  /** dot-separated keys; array indices are left out (arrays are searched element-wise) */
  path: string;
  /** the number, or the quantity in SI base units */
  num: number;
  /**
   * `number` for plain JSON numbers, `string` for strings (then `num` is 0), `truncated` for the
   * marker of a document with more values than {@link MAX_INDEXED} (path empty); else the SI
   * dimension exponents of the quantity
   */
  dim: string;
  /** the string, for `dim = 'string'` */
  str?: string;
}

/** At most this many values of one document are indexed (the document itself is kept whole). */
export const MAX_INDEXED = 5000;
export const PLAIN = 'number';
export const STRING = 'string';
export const TRUNCATED = 'truncated';
/** strings up to this many characters (UTF-16 code units) are indexed, for equality */
export const MAX_STRING = 200;
/** the column sizes of `metadata_value`: longer paths and dimensions are not indexed */
const MAX_PATH = 500;
const MAX_DIM = 40;

const QUANTITY_TEXT = /^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-zµμ°Ω][\w°µμΩ/^*.\s-]*)$/;

let mathjs: typeof import('mathjs') | undefined;

/**
 * mathjs, loaded on the first quantity rather than at start: loading it builds its whole function
 * library (over a second of CPU), which every process start, command-line run and test file would
 * pay, most of them never reading a unit.
 */
function parseUnit(value: number, unitText: string): Unit {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose (see above)
  mathjs ??= require('mathjs') as typeof import('mathjs');
  return mathjs.unit(value, unitText);
}

/** A quantity in SI: its value and dimension key; null when `unit` is no unit mathjs knows. */
function toSi(value: number, unitText: string): { num: number; dim: string } | null {
  if (!Number.isFinite(value) || unitText.trim() === '' || unitText.length > 50) return null;
  let u: Unit;
  try {
    u = parseUnit(value, unitText.trim());
  } catch {
    return null;
  }
  const si = u.toSI().toJSON() as { value: number | null };
  if (typeof si.value !== 'number' || !Number.isFinite(si.value)) return null;
  return { num: si.value, dim: u.dimensions.join(',') };
}

/**
 * The quantity a JSON value writes, in SI: `{"value": 30, "unit": "degC"}`, `{"v": 30, "u":
 * "degC"}` or the string `"30 degC"`. Null when it is no quantity or its unit is unknown (the
 * value stays in the document, it is only not unit-searchable).
 */
export function quantityOf(value: unknown): { num: number; dim: string } | null {
  if (typeof value === 'string') {
    const m = QUANTITY_TEXT.exec(value);
    return m ? toSi(Number(m[1]), m[2]) : null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  const [v, u] = 'value' in o ? [o.value, o.unit] : [o.v, o.u];
  return typeof v === 'number' && typeof u === 'string' ? toSi(v, u) : null;
}

/**
 * The typed values of a document for the side index: every JSON number at its path, and every
 * quantity normalised to SI at the path of the object or string that writes it (at most
 * {@link MAX_INDEXED} of these, in document order); and every string of at most
 * {@link MAX_STRING} characters at its path (at most {@link MAX_INDEXED} too). A document with
 * more strings also gets the marker `{path: '', dim: 'truncated'}`: a string search cannot rule
 * it out from the index. The document is never changed.
 */
export function indexedValues(doc: unknown): IndexedValue[] {
  const typed: IndexedValue[] = [];
  const strings: IndexedValue[] = [];
  // set from inside `walk` (a closure: an object, so the compiler does not narrow it to false)
  const seen = { truncated: false };
  const full = () => typed.length >= MAX_INDEXED && strings.length >= MAX_INDEXED;
  const walk = (value: unknown, path: string) => {
    if (full()) {
      seen.truncated = true;
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) walk(item, path);
      return;
    }
    const indexable = path !== '' && path.length <= MAX_PATH;
    if (indexable) {
      const q = quantityOf(value);
      if (q && q.dim.length <= MAX_DIM && typed.length < MAX_INDEXED) typed.push({ path, ...q });
    }
    if (typeof value === 'number' && Number.isFinite(value) && indexable) {
      if (typed.length < MAX_INDEXED) typed.push({ path, num: value, dim: PLAIN });
    } else if (typeof value === 'string' && indexable && value.length <= MAX_STRING) {
      if (strings.length < MAX_INDEXED) strings.push({ path, num: 0, dim: STRING, str: value });
      else seen.truncated = true;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
        walk(child, path === '' ? key : `${path}.${key}`);
      }
    }
  };
  walk(doc, '');
  const marker: IndexedValue[] = seen.truncated ? [{ path: '', num: 0, dim: TRUNCATED }] : [];
  return [...typed, ...strings, ...marker];
}
