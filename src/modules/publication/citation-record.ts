import type { Creator, Funding, RelatedIdentifier } from './publication-input';
import type { Publication } from './publication.entity';
import { SPDX_LICENSES } from './spdx-licenses';

/** A creator as every format needs it: the name split when it is "Family, Given". */
export interface CitedCreator extends Creator {
  familyName: string | null;
  givenName: string | null;
}

export interface CitedFile {
  name: string;
  size: number;
  sha256: string;
  /** where its bytes are asked for (authenticated, and closed while embargoed) */
  url: string;
}

/**
 * THE citation record: what every export format of a publication is made from (DataCite JSON
 * and XML, schema.org, RO-Crate, BibTeX, RIS, CSL-JSON), so that they cannot disagree. Built
 * once by {@link citationRecord}; a format only renders it.
 */
export interface CitationRecord {
  id: string;
  state: Publication['state'];
  /** the landing page */
  url: string;
  doi: string | null;
  /** how it is cited: https://doi.org/<doi>, else the landing page */
  citeAs: string;
  title: string;
  description: string;
  creators: CitedCreator[];
  publisher: string;
  /** the year it was published (its draft's year while a draft) */
  year: string;
  /** the day it was published (YYYY-MM-DD), null for a draft */
  datePublished: string | null;
  /**
   * when its files open (an embargo: docs/publications.md, "Embargo"), as an ISO 8601 date-time;
   * null without one. DataCite `dates` carry it as `Available`.
   */
  embargoUntil: string | null;
  license: { id: string; name: string; url: string };
  keywords: string[];
  funding: Funding[];
  /** the creators' related identifiers, then the version links */
  relatedIdentifiers: RelatedIdentifier[];
  version: string | null;
  datasets: { id: string; name: string | null }[];
  files: CitedFile[];
  totalBytes: number;
  withdrawalReason: string | null;
}

/** The links of a publication to its neighbours, as ids the reader may see. */
export interface VersionLinks {
  previous: { id: string; doi: string | null } | null;
  next: { id: string; doi: string | null } | null;
}

export function licenseUrl(id: string): string {
  return `https://spdx.org/licenses/${id}`;
}

function split(c: Creator): CitedCreator {
  const comma = c.name.indexOf(',');
  if (comma <= 0) return { ...c, familyName: null, givenName: null };
  return {
    ...c,
    familyName: c.name.slice(0, comma).trim(),
    givenName: c.name.slice(comma + 1).trim() || null,
  };
}

/** The identifier of a version link: its DOI, else its landing page. */
function versionIdentifier(base: string, v: { id: string; doi: string | null }): RelatedIdentifier {
  return v.doi
    ? { relatedIdentifier: v.doi, relatedIdentifierType: 'DOI', relationType: 'IsNewVersionOf' }
    : {
        relatedIdentifier: landingUrl(base, v.id),
        relatedIdentifierType: 'URL',
        relationType: 'IsNewVersionOf',
      };
}

export function landingUrl(base: string, id: string): string {
  return `${base}/publications/${id}`;
}

/** The citation record of a publication (files only when published: a tombstone lists none). */
export function citationRecord(
  pub: Publication,
  links: VersionLinks,
  opts: { baseUrl: string; publisher: string },
): CitationRecord {
  const m = pub.metadata;
  const url = landingUrl(opts.baseUrl, pub.uniqueId);
  const doi = pub.doi ?? null;
  const when = pub.publishedAt ?? pub.creationTime;
  const manifest = pub.state === 'published' ? (pub.manifest ?? []) : [];
  const files = manifest.flatMap((d) =>
    d.files.map((f) => ({
      name: f.name,
      size: f.size,
      sha256: f.sha256,
      url: `${opts.baseUrl}/api/v2/files/${f.fileId}/download`,
    })),
  );
  const related = [...m.relatedIdentifiers];
  if (links.previous) related.push(versionIdentifier(opts.baseUrl, links.previous));
  if (links.next)
    related.push({ ...versionIdentifier(opts.baseUrl, links.next), relationType: 'IsPreviousVersionOf' });
  return {
    id: pub.uniqueId,
    state: pub.state,
    url,
    doi,
    citeAs: doi ? `https://doi.org/${doi}` : url,
    title: m.title,
    description: m.description,
    creators: m.creators.map(split),
    publisher: opts.publisher,
    year: String(when.getUTCFullYear()),
    datePublished: pub.publishedAt ? pub.publishedAt.toISOString().slice(0, 10) : null,
    embargoUntil: pub.embargoUntil ? pub.embargoUntil.toISOString().replace('.000Z', 'Z') : null,
    license: { id: m.license, name: SPDX_LICENSES[m.license] ?? m.license, url: licenseUrl(m.license) },
    keywords: m.keywords,
    funding: m.funding,
    relatedIdentifiers: related,
    version: m.version,
    datasets: (pub.manifest ?? pub.datasetIds.map((id) => ({ datasetId: id, name: null }))).map((d) => ({
      id: d.datasetId,
      name: d.name,
    })),
    files,
    totalBytes: files.reduce((n, f) => n + f.size, 0),
    withdrawalReason: pub.withdrawalReason ?? null,
  };
}
