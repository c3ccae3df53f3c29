import { unit as parseUnit, type Unit } from 'mathjs';

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
 * quantity normalised to SI at the path of the object or string that writes it. The document is
 * never changed. At most {@link MAX_INDEXED} values, in document order.
 */
export function indexedValues(doc: unknown): IndexedValue[] {
  const out: IndexedValue[] = [];
  const walk = (value: unknown, path: string) => {
    if (out.length >= MAX_INDEXED) return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, path);
      return;
    }
    const indexable = path !== '' && path.length <= MAX_PATH;
    if (indexable) {
      const q = quantityOf(value);
      if (q && q.dim.length <= MAX_DIM) out.push({ path, ...q });
    }
    if (typeof value === 'number' && Number.isFinite(value) && indexable) {
      out.push({ path, num: value, dim: PLAIN });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
        walk(child, path === '' ? key : `${path}.${key}`);
      }
    }
  };
  walk(doc, '');
  return out.slice(0, MAX_INDEXED);
}
