import path from 'node:path';
import type { Unit } from 'mathjs';

/** One indexed value of a metadata document (table `metadata_value`). */
export interface IndexedValue {
  /** dot-separated keys; array indices are left out (arrays are searched element-wise) */
  path: string;
  /** the number, or the quantity in SI base units */
  num: number;
  /** `number` for plain JSON numbers, else the SI dimension exponents of the quantity */
  dim: string;
}

/** At most this many values of one document are indexed (the document itself is kept whole). */
export const MAX_INDEXED = 5000;
export const PLAIN = 'number';
/** the column sizes of `metadata_value`: longer paths and dimensions are not indexed */
const MAX_PATH = 500;
const MAX_DIM = 40;

const QUANTITY_TEXT = /^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-zµμ°Ω][\w°µμΩ/^*.\s-]*)$/;

type UnitOf = (value: number, unitText: string) => Unit;
let unit: UnitOf | undefined;

/**
 * mathjs's `unit`, built on the first quantity rather than at start, and built alone: the package's
 * main entry builds its whole function library (1.1–1.5 s of CPU), which every process start,
 * command-line run and test file reading a quantity would pay. The unit function with only its
 * own dependencies costs about a third of that and answers identically (same Unit class, same
 * unit table; test/unit/metadata-quantities.spec.ts compares the two). The files are reached by
 * path because the package's `exports` do not name them; mathjs is pinned to an exact version.
 */
function parseUnit(value: number, unitText: string): Unit {
  unit ??= loadUnitFunction();
  return unit(value, unitText);
}

/** The unit function of a mathjs instance made from the unit factories only. */
export function loadUnitFunction(): UnitOf {
  /* eslint-disable @typescript-eslint/no-require-imports -- lazy on purpose (see parseUnit) */
  const dir = path.dirname(require.resolve('mathjs/package.json'));
  const { create } = require(path.join(dir, 'lib/cjs/core/create.js')) as typeof import('mathjs');
  const { unitDependencies } = require(
    path.join(dir, 'lib/cjs/entry/dependenciesAny/dependenciesUnitFunction.generated.js'),
  ) as typeof import('mathjs');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const math = create({ unitDependencies });
  return (value: number, unitText: string) => math.unit(value, unitText);
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

/** Strings longer than this are not in the string side index (their conditions read the document). */
export const MAX_INDEXED_STRING = 200;

/**
 * Whether a string at a path goes into the string side index: at most
 * {@link MAX_INDEXED_STRING} characters, and path and string together within 2 000 bytes (a
 * btree entry holds about 2 700).
 */
export function stringIndexable(path: string, str: string): boolean {
  return (
    path !== '' &&
    path.length <= MAX_PATH &&
    str.length <= MAX_INDEXED_STRING &&
    Buffer.byteLength(path) + Buffer.byteLength(str) <= 2000
  );
}

/**
 * Whether a condition's path can name the key: paths are keys joined by `.`, so a key that is
 * empty or holds a dot is never reached (its values are not indexed; `material.x` as one key
 * would otherwise answer for the path material → x).
 */
export function addressableKey(key: string): boolean {
  return key !== '' && !key.includes('.');
}

/** One indexed string of a metadata document (table `metadata_string`). */
export interface IndexedString {
  /** dot-separated keys, as in {@link IndexedValue} */
  path: string;
  str: string;
}

/**
 * The strings of a document for the string side index, where a jsonpath equality condition
 * (`$.a.b ? (@ == "x")`, lax mode) finds them: each step into a key looks into the elements of
 * an array one level deep (not into arrays within it), and the value at the path is a string, an
 * array of strings, or an array of such arrays (the filter and the comparison each unwrap one
 * level). Every such string that {@link stringIndexable} admits, at most {@link MAX_INDEXED},
 * in document order; a document with more gets the marker {@link STRINGS_OVERFLOW} as well (a
 * string equality cannot rule it out from the index and asks its document).
 */
export function indexedStrings(doc: unknown): IndexedString[] {
  const out: IndexedString[] = [];
  // set from inside the callback (an object, so the compiler does not narrow it to false)
  const seen = { overflow: false };
  reach(doc, (value, path) => {
    if (typeof value !== 'string' || !stringIndexable(path, value)) return true;
    if (out.length < MAX_INDEXED) {
      out.push({ path, str: value });
      return true;
    }
    seen.overflow = true;
    return false;
  });
  return seen.overflow ? [...out, STRINGS_OVERFLOW] : out;
}

/**
 * The row of `metadata_string` that marks a document with more indexable strings than
 * {@link MAX_INDEXED} (an empty path, which no indexed string has).
 */
export const STRINGS_OVERFLOW: IndexedString = Object.freeze({ path: '', str: '' });

/**
 * The typed values of a document for the side index: every JSON number at its path, and every
 * quantity normalised to SI at the path of the object or string that writes it, where a jsonpath
 * condition (`$.a.b ? (@ == 5)`, lax mode) reaches them: a step into a key looks into the
 * elements of an array one level deep, and the value at the path may sit in an array or an array
 * of arrays (the filter and the comparison each unwrap one level), as {@link indexedStrings}
 * does for strings. The document is never changed. At most {@link MAX_INDEXED} values, in
 * document order.
 */
export function indexedValues(doc: unknown): IndexedValue[] {
  const out: IndexedValue[] = [];
  reach(doc, (value, path) => {
    if (path.length > MAX_PATH) return true;
    const q = quantityOf(value);
    if (q && q.dim.length <= MAX_DIM) out.push({ path, ...q });
    if (typeof value === 'number' && Number.isFinite(value)) out.push({ path, num: value, dim: PLAIN });
    return out.length < MAX_INDEXED;
  });
  return out.slice(0, MAX_INDEXED);
}

/**
 * Calls `visit` with every value of a document a lax-mode jsonpath condition on a path reaches,
 * and that path (keys joined by `.`), in document order, until it returns false: each step into
 * a key looks into the elements of an array one level deep (not into arrays within it), and the
 * value at the path is visited itself, or the elements of the array it is, or of the arrays in
 * that array (the filter and the comparison each unwrap one level). Keys no path can name
 * ({@link addressableKey}) are skipped with what is under them.
 */
function reach(doc: unknown, visit: (value: unknown, path: string) => boolean): void {
  const run = { going: true };
  const leaf = (value: unknown, path: string, levels: number) => {
    if (!run.going) return;
    if (!Array.isArray(value)) run.going = visit(value, path);
    else if (levels < 2) for (const item of value) leaf(item, path, levels + 1);
  };
  const walk = (value: unknown, path: string) => {
    leaf(value, path, 0);
    const objects = Array.isArray(value) ? value.filter(isObject) : isObject(value) ? [value] : [];
    for (const o of objects) {
      for (const [key, child] of Object.entries(o)) {
        if (run.going && addressableKey(key)) walk(child, `${path}.${key}`);
      }
    }
  };
  if (isObject(doc)) {
    for (const [key, child] of Object.entries(doc)) if (run.going && addressableKey(key)) walk(child, key);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
