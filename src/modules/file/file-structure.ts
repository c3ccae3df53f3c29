/**
 * The structure of one file (today: an HDF5 file's groups and datasets), as ingestion read it and
 * the file's preview shows it (docs/web-app.md, "Previews"). What an ingestor hands over is a tree
 * ({@link StructureTreeNode}); what is stored is a bounded flat list of nodes in tree order
 * ({@link StructureNode}), cut at the limits below with `truncated` set.
 */

/** At most this many nodes (groups, datasets, other objects) are kept of one file. */
export const STRUCTURE_MAX_NODES = 2000;
/** Nodes deeper than this many levels below the root are left out. */
export const STRUCTURE_MAX_DEPTH = 16;
/** At most this many attributes are kept per node (the root's included). */
export const STRUCTURE_MAX_ATTRIBUTES = 64;
/** An attribute whose value is longer than this as JSON is kept as `{ omitted: true, bytes }`. */
export const STRUCTURE_MAX_ATTRIBUTE_BYTES = 1024;
/** The stored nodes, as JSON, stop growing past this size (no further node is added). */
export const STRUCTURE_MAX_BYTES = 256 * 1024;
/** A path longer than this is cut (with `…`). */
export const STRUCTURE_MAX_PATH = 1024;

/** A node as an ingestor reports it (src/ingestors/h5/read.ts `H5Node` has this shape). */
export interface StructureTreeNode {
  kind: 'group' | 'dataset' | 'other';
  attrs: Record<string, unknown>;
  children?: Record<string, StructureTreeNode>;
  shape?: number[] | null;
  dtype?: string;
}

/** What an ingestor found of a file's structure: its root group, and whether the reader already cut it. */
export interface StructureTree {
  format: 'hdf5';
  root: StructureTreeNode;
  /** the reader stopped early (its own node limit) */
  truncated: boolean;
}

/** One stored node: `/` is the root group; paths name every level (`/entry/counts`). */
export interface StructureNode {
  path: string;
  kind: 'group' | 'dataset' | 'other';
  /** datasets: the dimensions ([] for a scalar, null when none) */
  shape?: number[] | null;
  /** datasets: the element type (`float64`, `int32`, `string`, …) */
  dtype?: string;
  attributes: Record<string, unknown>;
}

/** A file's structure as stored: the nodes in tree order, cut at the limits. */
export interface BoundedStructure {
  format: string;
  nodes: StructureNode[];
  /** something was left out: nodes, levels, attributes or attribute values over the limits, or by the reader */
  truncated: boolean;
}

/** JSON text of an attribute value: big integers as numbers (strings when unsafe), NaN and infinities null, no NUL. */
function jsonOf(value: unknown): string {
  // undefined (and a function) stringify to nothing
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
    if (typeof v === 'number' && !Number.isFinite(v)) return null;
    if (typeof v === 'string' && v.includes('\u0000')) return v.split('\u0000').join('');
    if (ArrayBuffer.isView(v) && !(v instanceof DataView))
      return Array.from(v as unknown as ArrayLike<number>);
    return v;
  }) as string | undefined;
  return text ?? 'null';
}

const cutPath = (p: string) => (p.length > STRUCTURE_MAX_PATH ? `${p.slice(0, STRUCTURE_MAX_PATH - 1)}…` : p);

/**
 * The stored form of `tree`: nodes in tree order (depth first), at most
 * {@link STRUCTURE_MAX_NODES}, {@link STRUCTURE_MAX_DEPTH} levels, {@link STRUCTURE_MAX_ATTRIBUTES}
 * attributes per node, each up to {@link STRUCTURE_MAX_ATTRIBUTE_BYTES} bytes of JSON, and
 * {@link STRUCTURE_MAX_BYTES} in all; `truncated` when anything was left out.
 */
export function boundStructure(tree: StructureTree): BoundedStructure {
  const nodes: StructureNode[] = [];
  let truncated = tree.truncated;
  let bytes = 2;
  let full = false;
  const attributesOf = (attrs: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    const entries = Object.entries(attrs);
    if (entries.length > STRUCTURE_MAX_ATTRIBUTES) truncated = true;
    for (const [name, value] of entries.slice(0, STRUCTURE_MAX_ATTRIBUTES)) {
      const text = jsonOf(value);
      const size = Buffer.byteLength(text);
      if (size > STRUCTURE_MAX_ATTRIBUTE_BYTES) {
        out[name.slice(0, 255)] = { omitted: true, bytes: size };
        truncated = true;
      } else out[name.slice(0, 255)] = JSON.parse(text) as unknown;
    }
    return out;
  };
  const add = (path: string, n: StructureTreeNode): boolean => {
    if (full) return false;
    if (nodes.length >= STRUCTURE_MAX_NODES) {
      full = true;
      truncated = true;
      return false;
    }
    const node: StructureNode = { path: cutPath(path), kind: n.kind, attributes: attributesOf(n.attrs) };
    if (n.kind === 'dataset') {
      node.shape = Array.isArray(n.shape) ? n.shape.map(Number) : null;
      node.dtype = (n.dtype ?? '').slice(0, 100);
    }
    const size = Buffer.byteLength(JSON.stringify(node)) + 1;
    if (bytes + size > STRUCTURE_MAX_BYTES) {
      full = true;
      truncated = true;
      return false;
    }
    bytes += size;
    nodes.push(node);
    return true;
  };
  const walk = (group: StructureTreeNode, path: string, depth: number) => {
    for (const [name, child] of Object.entries(group.children ?? {})) {
      if (full) return;
      if (depth > STRUCTURE_MAX_DEPTH) {
        truncated = true;
        return;
      }
      const p = `${path === '/' ? '' : path}/${name}`;
      if (!add(p, child)) return;
      if (child.kind === 'group') walk(child, p, depth + 1);
    }
  };
  add('/', tree.root);
  walk(tree.root, '/', 1);
  return { format: tree.format, nodes, truncated };
}
