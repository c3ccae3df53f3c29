import type { StructureTree } from '../../modules/file/file-structure';
import { startsWith, type Source } from '../ingestor';
import { H5Session } from './session';
import { h5ReadArray, h5ReadTree, type H5Array, type H5Node, type H5Tree } from './read';

const SIGNATURE = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];
/** libhdf5 looks for its signature at 0 and at every power of two from 512 (a user block) */
const SIGNATURE_OFFSETS = [0, 512, 1024, 2048, 4096, 8192, 16384, 32768];
export const H5_EXTENSIONS = new Set(['h5', 'hdf5', 'hdf', 'he5', 'nxs', 'nx5', 'emd']);
const MAX_ATTR_ITEMS = 1000;
const MAX_NODES = 20_000;

/** Whether the first bytes carry the HDF5 signature. */
export async function hasH5Signature(source: Source): Promise<boolean> {
  const head = await source.head();
  return SIGNATURE_OFFSETS.some((offset) => startsWith(head, SIGNATURE, offset));
}

/** An HDF5 file opened in its own thread, shared by the detection and the extraction. */
export interface OpenH5 {
  session: H5Session;
  tree: H5Tree;
}

/** The file's tree (opened once per source; the thread ends when the source is released). */
export function openH5(source: Source): Promise<OpenH5> {
  return source.memo(
    'h5',
    async () => {
      const file = await source.path();
      const session = new H5Session();
      try {
        const tree = await session.call('h5ReadTree', h5ReadTree, {
          path: file,
          maxAttrItems: MAX_ATTR_ITEMS,
          maxNodes: MAX_NODES,
        });
        return { session, tree };
      } catch (err) {
        await session.close();
        throw new Error(`not a readable HDF5 file (${(err as Error).message})`);
      }
    },
    (open) => open.session.close(),
  );
}

/** A dataset's values, subsampled for a plot or an image. */
export function readH5Array(open: OpenH5, path: string): Promise<H5Array> {
  return open.session.call('h5ReadArray', h5ReadArray, { path, maxPoints: 2000, maxEdge: 1024 });
}

/**
 * The tree as metadata: each group an object of its attributes and children, each dataset an
 * object of its attributes plus `_shape` and `_dtype` (the legacy worker kept attributes only).
 */
export function treeMetadata(tree: H5Tree): Record<string, unknown> {
  const node = (n: H5Node): Record<string, unknown> => {
    if (n.kind === 'dataset') return { ...n.attrs, _shape: n.shape, _dtype: n.dtype };
    const out: Record<string, unknown> = { ...n.attrs };
    for (const [name, child] of Object.entries(n.children ?? {})) out[name] = node(child);
    return out;
  };
  const root = node({ kind: 'group', attrs: tree.attrs, children: tree.children });
  return tree.truncated ? { ...root, _truncated: true } : root;
}

/** The tree as the file's own structure (recorded per file for its preview; the file module bounds it). */
export function treeStructure(tree: H5Tree): StructureTree {
  return {
    format: 'hdf5',
    root: { kind: 'group', attrs: tree.attrs, children: tree.children },
    truncated: tree.truncated,
  };
}
