import type { Extraction, Ingestor } from './ingestor';
import { documentMetadata, MAX_DOCUMENT_BYTES } from './document';

/** JSON documents (up to 32 MiB): the document becomes scientific metadata. */
export const jsonIngestor: Ingestor = {
  name: 'JsonIngestor',
  description: 'JSON documents: the document merged into the scientific metadata.',

  supports(source) {
    return Promise.resolve(source.extension === 'json');
  },

  async extract(source): Promise<Extraction> {
    const text = (await source.bytes(MAX_DOCUMENT_BYTES)).toString('utf8').replace(/^\uFEFF/, '');
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new Error(`not valid JSON (${(err as Error).message})`);
    }
    return { fields: { dataFormat: 'json' }, metadata: documentMetadata(doc) };
  },
};
