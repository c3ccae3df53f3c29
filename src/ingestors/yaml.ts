import { parseAllDocuments } from 'yaml';
import type { Extraction, Ingestor } from './ingestor';
import { documentMetadata, MAX_DOCUMENT_BYTES } from './document';

/**
 * YAML documents (up to 32 MiB): the document becomes scientific metadata (several documents
 * in one file: a list under `data`). Aliases are resolved with the parser's limit on alias
 * expansion, so a "billion laughs" file fails instead of exhausting memory.
 */
export const yamlIngestor: Ingestor = {
  name: 'YamlIngestor',
  description: 'YAML documents: the document merged into the scientific metadata.',

  supports(source) {
    return Promise.resolve(source.extension === 'yaml' || source.extension === 'yml');
  },

  async extract(source): Promise<Extraction> {
    const text = (await source.bytes(MAX_DOCUMENT_BYTES)).toString('utf8');
    const docs = parseAllDocuments(text, { prettyErrors: false });
    const parsed = (Array.isArray(docs) ? docs : [docs]).map((doc) => {
      if (doc.errors.length) throw new Error(`not valid YAML (${doc.errors[0].message})`);
      return doc.toJS({ maxAliasCount: 100 }) as unknown;
    });
    const value = parsed.length === 1 ? parsed[0] : parsed;
    return { fields: { dataFormat: 'yaml' }, metadata: documentMetadata(value ?? {}) };
  },
};
