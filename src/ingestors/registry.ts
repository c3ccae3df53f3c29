import type { Ingestor, Source } from './ingestor';
import { scopeFoundryIngestor } from './scopefoundry';
import { hdf5Ingestor } from './hdf5';
import { tiffIngestor } from './tiff';
import { imageIngestor } from './image';
import { delimitedIngestor } from './delimited';
import { jsonIngestor } from './json';
import { yamlIngestor } from './yaml';
import { apiUploadIngestor } from './api-upload';

/**
 * The scan order, most specific first: a file goes to the first ingestor that supports it.
 * Narrow matchers come before broad ones (ScopeFoundry before any HDF5; TIFF before the other
 * images). Tests pin which ingestor claims each kind of file: reordering reroutes files.
 */
export const SCAN_ORDER: readonly Ingestor[] = [
  scopeFoundryIngestor,
  hdf5Ingestor,
  tiffIngestor,
  imageIngestor,
  delimitedIngestor,
  jsonIngestor,
  yamlIngestor,
];

/** Ingestors used only when a request names them. */
const BY_NAME_ONLY: readonly Ingestor[] = [apiUploadIngestor];

export const ALL_INGESTORS: readonly Ingestor[] = [...SCAN_ORDER, ...BY_NAME_ONLY];

/** Every ingestor, by the name clients use. */
export function ingestorNames(): string[] {
  return ALL_INGESTORS.map((i) => i.name);
}

const key = (name: string) => name.toLowerCase().replace(/ingestor$/, '');
const byKey = new Map(ALL_INGESTORS.map((i) => [key(i.name), i]));

/** The ingestor called `name` (case-insensitive; the `Ingestor` suffix may be left out). */
export function findIngestor(name: string): Ingestor | undefined {
  return byKey.get(key(name));
}

/** The first ingestor in scan order that supports the file, or null (nothing is extracted). */
export async function detectIngestor(
  source: Source,
  onError?: (ingestor: string, err: unknown) => void,
): Promise<Ingestor | null> {
  for (const ingestor of SCAN_ORDER) {
    try {
      if (await ingestor.supports(source)) return ingestor;
    } catch (err) {
      onError?.(ingestor.name, err);
    }
  }
  return null;
}
