import type { CitationRecord, CitedCreator } from './citation-record';

function person(c: CitedCreator): Record<string, unknown> {
  return {
    '@type': 'Person',
    ...(c.orcid ? { '@id': `https://orcid.org/${c.orcid}` } : {}),
    name: c.name,
    ...(c.familyName ? { familyName: c.familyName } : {}),
    ...(c.givenName ? { givenName: c.givenName } : {}),
    affiliation: c.affiliations.map((a) => ({
      '@type': 'Organization',
      ...(a.rorId ? { '@id': a.rorId } : {}),
      name: a.name,
    })),
  };
}

/**
 * schema.org `Dataset` JSON-LD (Google Dataset Search's required and recommended properties),
 * each file a `DataDownload` of `distribution`.
 */
export function schemaOrg(r: CitationRecord): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Dataset',
    '@id': r.citeAs,
    name: r.title,
    description: r.description,
    url: r.url,
    identifier: r.citeAs,
    ...(r.doi ? { sameAs: r.url } : {}),
    creator: r.creators.map(person),
    publisher: { '@type': 'Organization', name: r.publisher },
    license: r.license.url,
    keywords: r.keywords,
    ...(r.version ? { version: r.version } : {}),
    ...(r.datePublished ? { datePublished: r.datePublished } : {}),
    isAccessibleForFree: true,
    funding: r.funding.map((f) => ({
      '@type': 'MonetaryGrant',
      ...(f.awardNumber ? { identifier: f.awardNumber } : {}),
      ...(f.awardTitle ? { name: f.awardTitle } : {}),
      funder: {
        '@type': 'Organization',
        name: f.funderName,
        ...(f.funderIdentifier ? { identifier: f.funderIdentifier } : {}),
      },
    })),
    distribution: r.files.map((f) => ({
      '@type': 'DataDownload',
      name: f.name,
      contentUrl: f.url,
      contentSize: `${f.size} B`,
      sha256: f.sha256,
    })),
  };
}

/**
 * An RO-Crate 1.2 metadata document of a detached crate (the root dataset is the publication's
 * citable URI; every file an absolute URL).
 */
export function roCrate(r: CitationRecord): Record<string, unknown> {
  const orgId = (a: { name: string; rorId: string | null }) =>
    a.rorId ?? `#org-${encodeURIComponent(a.name)}`;
  const people = r.creators.map((c, i) => ({
    '@id': c.orcid ? `https://orcid.org/${c.orcid}` : `#creator-${i + 1}`,
    '@type': 'Person',
    name: c.name,
    ...(c.familyName ? { familyName: c.familyName } : {}),
    ...(c.givenName ? { givenName: c.givenName } : {}),
    affiliation: c.affiliations.map((a) => ({ '@id': orgId(a) })),
  }));
  const orgs = new Map(
    r.creators.flatMap((c) =>
      c.affiliations.map((a) => [orgId(a), { '@id': orgId(a), '@type': 'Organization', name: a.name }]),
    ),
  );
  return {
    '@context': 'https://w3id.org/ro/crate/1.2/context',
    '@graph': [
      {
        '@id': 'ro-crate-metadata.json',
        '@type': 'CreativeWork',
        conformsTo: { '@id': 'https://w3id.org/ro/crate/1.2' },
        about: { '@id': r.citeAs },
      },
      {
        '@id': r.citeAs,
        '@type': 'Dataset',
        name: r.title,
        description: r.description,
        ...(r.datePublished ? { datePublished: r.datePublished } : {}),
        license: { '@id': r.license.url },
        publisher: { '@id': '#publisher' },
        author: people.map((p) => ({ '@id': p['@id'] })),
        keywords: r.keywords,
        ...(r.version ? { version: r.version } : {}),
        hasPart: r.files.map((f) => ({ '@id': f.url })),
      },
      { '@id': r.license.url, '@type': 'CreativeWork', name: r.license.name, identifier: r.license.id },
      { '@id': '#publisher', '@type': 'Organization', name: r.publisher },
      ...people,
      ...orgs.values(),
      ...r.files.map((f) => ({
        '@id': f.url,
        '@type': 'File',
        name: f.name,
        contentSize: String(f.size),
        sha256: f.sha256,
      })),
    ],
  };
}

/** The creator's name as citations write it: "Family, Given", or the name as given. */
const citedName = (c: CitedCreator): string =>
  c.familyName ? `${c.familyName}, ${c.givenName ?? ''}`.trim() : c.name;

/** CSL-JSON (the citation format of citeproc and Zotero): one item. */
export function cslJson(r: CitationRecord): Record<string, unknown>[] {
  return [
    {
      id: r.id,
      type: 'dataset',
      title: r.title,
      author: r.creators.map((c) =>
        c.familyName ? { family: c.familyName, given: c.givenName ?? '' } : { literal: c.name },
      ),
      issued: { 'date-parts': [r.datePublished ? r.datePublished.split('-').map(Number) : [Number(r.year)]] },
      publisher: r.publisher,
      ...(r.doi ? { DOI: r.doi } : {}),
      URL: r.citeAs,
      ...(r.version ? { version: r.version } : {}),
      abstract: r.description,
      keyword: r.keywords.join(', '),
      license: r.license.id,
    },
  ];
}

// BibTeX: braces keep capitals; backslashes, braces and the special characters are escaped
const bib = (s: string): string =>
  s.replace(/[\\{}]/g, (c) => `\\${c === '\\' ? 'textbackslash{}' : c}`).replace(/([#$%&_^~])/g, '\\$1');

/** BibTeX: one `@misc` entry (the type biblatex and most styles cite datasets with). */
export function bibtex(r: CitationRecord): string {
  const fields: [string, string][] = [
    ['author', r.creators.map((c) => bib(citedName(c))).join(' and ')],
    ['title', `{${bib(r.title)}}`],
    ['year', r.year],
    ['publisher', bib(r.publisher)],
    ...(r.doi ? ([['doi', bib(r.doi)]] as [string, string][]) : []),
    ['url', bib(r.citeAs)],
    ...(r.version ? ([['version', bib(r.version)]] as [string, string][]) : []),
    ['keywords', bib(r.keywords.join(', '))],
    ['note', bib(`License: ${r.license.id}`)],
  ];
  return `@misc{${r.id},\n${fields.map(([k, v]) => `  ${k} = {${v}}`).join(',\n')}\n}\n`;
}

/** RIS (`TY  - DATA`), each value on one line. */
export function ris(r: CitationRecord): string {
  const line = (tag: string, v: string) => `${tag}  - ${v.replace(/[\r\n]+/g, ' ')}`;
  return (
    [
      line('TY', 'DATA'),
      ...r.creators.map((c) => line('AU', citedName(c))),
      line('TI', r.title),
      line('PY', r.year),
      ...(r.datePublished ? [line('DA', r.datePublished.replace(/-/g, '/'))] : []),
      line('PB', r.publisher),
      ...(r.doi ? [line('DO', r.doi)] : []),
      line('UR', r.citeAs),
      ...(r.version ? [line('ET', r.version)] : []),
      ...r.keywords.map((k) => line('KW', k)),
      line('AB', r.description),
      line('ER', ''),
    ].join('\r\n') + '\r\n'
  );
}
