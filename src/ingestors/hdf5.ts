import type { Extraction, Ingestor } from './ingestor';
import { H5_EXTENSIONS, hasH5Signature, openH5, treeMetadata, treeStructure } from './h5/file';

/**
 * HDF5 files (by extension or signature): the group/dataset tree with every attribute, under
 * `hdf5` in the metadata and as the file's own structure (its preview); data format `H5`. No thumbnail: a generic file says nothing about
 * which dataset to show (the ScopeFoundry variant does).
 */
export const hdf5Ingestor: Ingestor = {
  name: 'H5Ingestor',
  description: 'HDF5 files: the group/dataset tree with its attributes.',

  async supports(source) {
    return H5_EXTENSIONS.has(source.extension) || (await hasH5Signature(source));
  },

  async extract(source): Promise<Extraction> {
    const { tree } = await openH5(source);
    return {
      fields: { dataFormat: 'H5' },
      metadata: { hdf5: treeMetadata(tree) },
      structure: treeStructure(tree),
    };
  },
};
