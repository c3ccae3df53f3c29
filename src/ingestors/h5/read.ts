/**
 * The functions the HDF5 thread runs (see {@link H5Session}). They are sent as source text, so
 * each is self-contained: no imports and no outer variables at run time (types are erased).
 */

/** An HDF5 node as the tree reader reports it. */
export interface H5Node {
  kind: 'group' | 'dataset' | 'other';
  attrs: Record<string, unknown>;
  /** groups */
  children?: Record<string, H5Node>;
  /** datasets */
  shape?: number[] | null;
  dtype?: string;
}

export interface H5DatasetInfo {
  path: string;
  shape: number[];
  dtype: string;
  numeric: boolean;
}

export interface H5Tree {
  attrs: Record<string, unknown>;
  children: Record<string, H5Node>;
  /** every dataset, in tree order */
  datasets: H5DatasetInfo[];
  /** true when the tree had more than `maxNodes` nodes and was cut */
  truncated: boolean;
}

export interface H5Array {
  shape: number[];
  data: ArrayLike<number>;
}

interface Meta {
  type: number;
  size: number;
  signed: boolean;
  total_size: number;
}
interface Attr {
  json_value: unknown;
  metadata: Meta;
}
interface Obj {
  attrs: Record<string, Attr>;
}
interface Grp extends Obj {
  keys(): string[];
  get(name: string): unknown;
}
interface Dset extends Obj {
  shape: number[] | null;
  metadata: Meta;
  value: ArrayLike<number | bigint>;
  slice(ranges: (number | null)[][]): ArrayLike<number | bigint>;
}
interface Lib {
  File: new (path: string, mode: string) => Grp & { close(): void };
  Group: abstract new (...a: never[]) => Grp;
  Dataset: abstract new (...a: never[]) => Dset;
}

/** Opens `path` (closing any file opened before) and returns its tree with every attribute. */
export function h5ReadTree(
  h5: unknown,
  state: Record<string, unknown>,
  input: { path: string; maxAttrItems: number; maxNodes: number },
): H5Tree {
  const lib = h5 as Lib;
  const previous = state.file as { close(): void } | undefined;
  if (previous) previous.close();
  state.file = undefined;
  const file = new lib.File(input.path, 'r');
  state.file = file;
  let nodes = 0;
  let truncated = false;
  const datasets: H5DatasetInfo[] = [];
  const typeName = (m: Meta): string => {
    if (m.type === 0) return `${m.signed ? 'int' : 'uint'}${m.size * 8}`;
    if (m.type === 1) return `float${m.size * 8}`;
    if (m.type === 3) return 'string';
    if (m.type === 6) return 'compound';
    if (m.type === 9) return 'vlen';
    return `type${m.type}`;
  };
  const attrsOf = (obj: Obj): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    let attrs: Record<string, Attr>;
    try {
      attrs = obj.attrs;
    } catch {
      return out;
    }
    for (const [name, attr] of Object.entries(attrs)) {
      try {
        const meta = attr.metadata;
        out[name] =
          meta.total_size > input.maxAttrItems
            ? { values: meta.total_size, dtype: typeName(meta), omitted: true }
            : attr.json_value;
      } catch {
        out[name] = null;
      }
    }
    return out;
  };
  const walk = (group: Grp, prefix: string): Record<string, H5Node> => {
    const out: Record<string, H5Node> = {};
    for (const name of group.keys()) {
      if (++nodes > input.maxNodes) {
        truncated = true;
        break;
      }
      const path = `${prefix}/${name}`;
      let child: unknown;
      try {
        child = group.get(name);
      } catch {
        child = null;
      }
      if (child instanceof lib.Group) {
        out[name] = { kind: 'group', attrs: attrsOf(child), children: walk(child, path) };
      } else if (child instanceof lib.Dataset) {
        const meta = child.metadata;
        const shape = child.shape ?? [];
        const dtype = typeName(meta);
        out[name] = { kind: 'dataset', attrs: attrsOf(child), shape, dtype };
        datasets.push({ path, shape, dtype, numeric: meta.type === 0 || meta.type === 1 });
      } else {
        out[name] = { kind: 'other', attrs: {} };
      }
    }
    return out;
  };
  const children = walk(file, '');
  return { attrs: attrsOf(file), children, datasets, truncated };
}

/**
 * A numeric dataset of the open file, subsampled: a 1-D one to at most `maxPoints` values; for
 * more dimensions, the first frame of the leading ones, its last two dimensions strided to at
 * most `maxEdge` on a side. Values come back as numbers.
 */
export function h5ReadArray(
  _h5: unknown,
  state: Record<string, unknown>,
  input: { path: string; maxPoints: number; maxEdge: number },
): H5Array {
  const file = state.file as Grp | undefined;
  if (!file) throw new Error('no HDF5 file is open');
  const ds = file.get(input.path) as Dset;
  const shape = ds.shape ?? [];
  const numbers = (v: ArrayLike<number | bigint>): ArrayLike<number> =>
    typeof v[0] === 'bigint' ? Float64Array.from(v as ArrayLike<bigint>, Number) : (v as ArrayLike<number>);
  if (shape.length <= 1) {
    const n = shape[0] ?? 1;
    const step = Math.max(1, Math.ceil(n / input.maxPoints));
    const data = numbers(step === 1 ? ds.value : ds.slice([[0, n, step]]));
    return { shape: [data.length], data };
  }
  const h = shape[shape.length - 2];
  const w = shape[shape.length - 1];
  const sh = Math.max(1, Math.ceil(h / input.maxEdge));
  const sw = Math.max(1, Math.ceil(w / input.maxEdge));
  const ranges = shape.slice(0, -2).map((): (number | null)[] => [0, 1]);
  ranges.push([0, h, sh], [0, w, sw]);
  return { shape: [Math.ceil(h / sh), Math.ceil(w / sw)], data: numbers(ds.slice(ranges)) };
}
