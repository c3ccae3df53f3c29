import type { Ingestor } from './ingestor';

/**
 * Registers the file and parses nothing (used only when named, as in the legacy worker): the
 * request completes and the file counts as ingested, with no metadata or thumbnails.
 */
export const apiUploadIngestor: Ingestor = {
  name: 'ApiUploadIngestor',
  description: 'Registers the file without parsing it (only when asked for by name).',

  supports() {
    return Promise.resolve(true);
  },

  extract() {
    return Promise.resolve({});
  },
};
