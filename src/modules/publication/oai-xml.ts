import type { CitationRecord } from './citation-record';
import { dataciteXml } from './citation-datacite';

/** Characters XML 1.0 does not allow, even escaped: left out of every answer. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

export function xmlText(s: string): string {
  return s
    .replace(NOT_XML, '')
    .replace(
      /[<>&"']/g,
      (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
    );
}

export function xmlEl(
  name: string,
  text: string,
  attrs: Record<string, string | null | undefined> = {},
): string {
  const a = Object.entries(attrs)
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .map(([k, v]) => ` ${k}="${xmlText(v)}"`)
    .join('');
  return `<${name}${a}>${xmlText(text)}</${name}>`;
}

/** A datestamp at the granularity the repository declares: seconds, UTC, `Z`. */
export function datestamp(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The metadata formats every record is disseminated in. */
export const METADATA_FORMATS = {
  oai_dc: {
    schema: 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd',
    namespace: 'http://www.openarchives.org/OAI/2.0/oai_dc/',
  },
  oai_datacite: {
    schema: 'http://schema.datacite.org/meta/kernel-4/metadata.xsd',
    namespace: 'http://datacite.org/schema/kernel-4',
  },
} as const;
export type MetadataPrefix = keyof typeof METADATA_FORMATS;
export const METADATA_PREFIXES = Object.keys(METADATA_FORMATS) as MetadataPrefix[];

/** A related identifier as a `dc:relation`: a DOI as its resolver URL, anything else as given. */
function relation(x: CitationRecord['relatedIdentifiers'][number]): string {
  return x.relatedIdentifierType === 'DOI' ? `https://doi.org/${x.relatedIdentifier}` : x.relatedIdentifier;
}

/** Unqualified Dublin Core (`oai_dc`) of a citation record. */
export function oaiDc(r: CitationRecord): string {
  const dc = (name: string, value: string) => xmlEl(`dc:${name}`, value);
  const body = [
    dc('title', r.title),
    ...r.creators.map((c) => dc('creator', c.name)),
    ...r.keywords.map((k) => dc('subject', k)),
    dc('description', r.description),
    dc('publisher', r.publisher),
    dc('date', r.datePublished ?? r.year),
    dc('type', 'Dataset'),
    dc('identifier', r.citeAs),
    ...(r.citeAs === r.url ? [] : [dc('identifier', r.url)]),
    ...r.relatedIdentifiers.map((x) => dc('relation', relation(x))),
    dc('rights', r.license.url),
    dc('rights', r.license.name),
    ...(r.version ? [dc('description', `Version ${r.version}`)] : []),
  ];
  return (
    '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" ' +
    'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
    'xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai_dc/ http://www.openarchives.org/OAI/2.0/oai_dc.xsd">' +
    body.join('') +
    '</oai_dc:dc>'
  );
}

/** The DataCite kernel-4 `resource` of a citation record (citation-datacite.ts), without its XML declaration. */
export function oaiDatacite(r: CitationRecord): string {
  return dataciteXml(r)
    .replace(/^<\?xml[^>]*\?>\s*/, '')
    .replace(NOT_XML, '')
    .trim();
}

export function metadataOf(prefix: MetadataPrefix, r: CitationRecord): string {
  return prefix === 'oai_dc' ? oaiDc(r) : oaiDatacite(r);
}

/** The whole answer: `responseDate`, `request` (its arguments, none for badVerb/badArgument) and the body. */
export function oaiEnvelope(opts: {
  now: Date;
  baseUrl: string;
  request: Record<string, string | undefined>;
  body: string;
}): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
    'xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">' +
    xmlEl('responseDate', datestamp(opts.now)) +
    xmlEl('request', opts.baseUrl, opts.request) +
    opts.body +
    '</OAI-PMH>\n'
  );
}
