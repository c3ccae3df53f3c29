import type { CitationRecord } from './citation-record';
import { dataciteAttributes, dataciteXml } from './citation-datacite';
import { bibtex, cslJson, ris, roCrate, schemaOrg } from './citation-formats';

/** One export format: its media type (the DOI content-negotiation ones) and its renderer. */
interface ExportFormat {
  mediaType: string;
  render: (r: CitationRecord) => string;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** Every format a publication is exported in, by the name its explicit URL takes. */
export const EXPORT_FORMATS = {
  'datacite-json': {
    mediaType: 'application/vnd.datacite.datacite+json',
    render: (r) => json(dataciteAttributes(r)),
  },
  'datacite-xml': { mediaType: 'application/vnd.datacite.datacite+xml', render: dataciteXml },
  'schema-org': { mediaType: 'application/ld+json', render: (r) => json(schemaOrg(r)) },
  'ro-crate': {
    mediaType: 'application/ld+json; profile="https://w3id.org/ro/crate"',
    render: (r) => json(roCrate(r)),
  },
  bibtex: { mediaType: 'application/x-bibtex', render: bibtex },
  ris: { mediaType: 'application/x-research-info-systems', render: ris },
  'csl-json': { mediaType: 'application/vnd.citationstyles.csl+json', render: (r) => json(cslJson(r)) },
} as const satisfies Record<string, ExportFormat>;

export type ExportFormatName = keyof typeof EXPORT_FORMATS;
export const EXPORT_FORMAT_NAMES = Object.keys(EXPORT_FORMATS) as ExportFormatName[];

/**
 * The format an `Accept` header asks for, or null (then the caller answers its own JSON). Only
 * exact media types are matched (parameters and q-values ignored), first listed first; the
 * RO-Crate profile is asked as `application/ld+json; profile="https://w3id.org/ro/crate"`.
 */
export function negotiated(accept: string | undefined): ExportFormatName | null {
  if (!accept) return null;
  for (const part of accept.split(',')) {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (type === 'application/ld+json' && params.some((p) => p.includes('w3id.org/ro/crate')))
      return 'ro-crate';
    const found = EXPORT_FORMAT_NAMES.find((name) => EXPORT_FORMATS[name].mediaType === type);
    if (found) return found;
  }
  return null;
}
