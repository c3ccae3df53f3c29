import type { CitationRecord, CitedCreator } from './citation-record';

/** DataCite REST API `attributes` (JSON) of a citation record: the DataCite Metadata Schema 4.x. */
export function dataciteAttributes(r: CitationRecord): Record<string, unknown> {
  return {
    ...(r.doi ? { doi: r.doi } : {}),
    url: r.url,
    types: { resourceTypeGeneral: 'Dataset', resourceType: 'Dataset' },
    creators: r.creators.map(creator),
    titles: [{ title: r.title }],
    publisher: { name: r.publisher },
    publicationYear: r.year,
    subjects: r.keywords.map((subject) => ({ subject })),
    ...(r.datePublished || r.embargoUntil ? { dates: dataciteDates(r) } : {}),
    rightsList: [
      {
        rights: r.license.name,
        rightsUri: r.license.url,
        rightsIdentifier: r.license.id,
        rightsIdentifierScheme: 'SPDX',
        schemeUri: 'https://spdx.org/licenses/',
      },
    ],
    descriptions: [{ description: r.description, descriptionType: 'Abstract' }],
    fundingReferences: r.funding.map((f) => ({
      funderName: f.funderName,
      ...(f.funderIdentifier ? { funderIdentifier: f.funderIdentifier, funderIdentifierType: 'Other' } : {}),
      ...(f.awardNumber ? { awardNumber: f.awardNumber } : {}),
      ...(f.awardTitle ? { awardTitle: f.awardTitle } : {}),
    })),
    relatedIdentifiers: r.relatedIdentifiers.map((x) => ({
      relatedIdentifier: x.relatedIdentifier,
      relatedIdentifierType: x.relatedIdentifierType,
      relationType: x.relationType,
    })),
    sizes: [`${r.files.length} files`, `${r.totalBytes} bytes`],
    ...(r.version ? { version: r.version } : {}),
    schemaVersion: 'http://datacite.org/schema/kernel-4',
  };
}

function creator(c: CitedCreator): Record<string, unknown> {
  return {
    name: c.name,
    ...(c.familyName ? { nameType: 'Personal', familyName: c.familyName } : {}),
    ...(c.givenName ? { givenName: c.givenName } : {}),
    nameIdentifiers: c.orcid
      ? [
          {
            nameIdentifier: `https://orcid.org/${c.orcid}`,
            nameIdentifierScheme: 'ORCID',
            schemeUri: 'https://orcid.org',
          },
        ]
      : [],
    affiliation: c.affiliations.map((a) => ({
      name: a.name,
      ...(a.rorId
        ? { affiliationIdentifier: a.rorId, affiliationIdentifierScheme: 'ROR', schemeUri: 'https://ror.org' }
        : {}),
    })),
  };
}

const escapeXml = (s: string): string =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

function el(name: string, text: string, attrs: Record<string, string | null | undefined> = {}): string {
  const a = Object.entries(attrs)
    .filter(([, v]) => v)
    .map(([k, v]) => ` ${k}="${escapeXml(v ?? '')}"`)
    .join('');
  return `<${name}${a}>${escapeXml(text)}</${name}>`;
}

function wrap(name: string, children: string[]): string {
  return children.length ? `<${name}>${children.join('')}</${name}>` : '';
}

/** The DataCite Metadata Schema kernel-4 XML of a citation record (the same fields as the JSON). */
export function dataciteXml(r: CitationRecord): string {
  const creators = r.creators.map((c) =>
    wrap('creator', [
      el('creatorName', c.name, { nameType: c.familyName ? 'Personal' : null }),
      ...(c.givenName ? [el('givenName', c.givenName)] : []),
      ...(c.familyName ? [el('familyName', c.familyName)] : []),
      ...(c.orcid
        ? [
            el('nameIdentifier', `https://orcid.org/${c.orcid}`, {
              nameIdentifierScheme: 'ORCID',
              schemeURI: 'https://orcid.org',
            }),
          ]
        : []),
      ...c.affiliations.map((a) =>
        el('affiliation', a.name, {
          affiliationIdentifier: a.rorId,
          affiliationIdentifierScheme: a.rorId ? 'ROR' : null,
          schemeURI: a.rorId ? 'https://ror.org' : null,
        }),
      ),
    ]),
  );
  const body = [
    // without a DOI (DataCite not configured, or not registered yet) the landing page is the
    // identifier: the schema needs a non-empty one and leaves its type free (docs/publications.md)
    r.doi
      ? el('identifier', r.doi, { identifierType: 'DOI' })
      : el('identifier', r.url, { identifierType: 'URL' }),
    wrap('creators', creators),
    wrap('titles', [el('title', r.title)]),
    el('publisher', r.publisher),
    el('publicationYear', r.year),
    el('resourceType', 'Dataset', { resourceTypeGeneral: 'Dataset' }),
    wrap(
      'subjects',
      r.keywords.map((k) => el('subject', k)),
    ),
    r.datePublished || r.embargoUntil
      ? wrap(
          'dates',
          dataciteDates(r).map((d) => el('date', d.date, { dateType: d.dateType })),
        )
      : '',
    wrap(
      'relatedIdentifiers',
      r.relatedIdentifiers.map((x) =>
        el('relatedIdentifier', x.relatedIdentifier, {
          relatedIdentifierType: x.relatedIdentifierType,
          relationType: x.relationType,
        }),
      ),
    ),
    wrap('sizes', [el('size', `${r.files.length} files`), el('size', `${r.totalBytes} bytes`)]),
    r.version ? el('version', r.version) : '',
    wrap('rightsList', [
      el('rights', r.license.name, {
        rightsURI: r.license.url,
        rightsIdentifier: r.license.id,
        rightsIdentifierScheme: 'SPDX',
        schemeURI: 'https://spdx.org/licenses/',
      }),
    ]),
    wrap('descriptions', [el('description', r.description, { descriptionType: 'Abstract' })]),
    wrap(
      'fundingReferences',
      r.funding.map((f) =>
        wrap('fundingReference', [
          el('funderName', f.funderName),
          ...(f.funderIdentifier
            ? [el('funderIdentifier', f.funderIdentifier, { funderIdentifierType: 'Other' })]
            : []),
          ...(f.awardNumber ? [el('awardNumber', f.awardNumber)] : []),
          ...(f.awardTitle ? [el('awardTitle', f.awardTitle)] : []),
        ]),
      ),
    ),
  ];
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<resource xmlns="http://datacite.org/schema/kernel-4" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
    'xsi:schemaLocation="http://datacite.org/schema/kernel-4 http://schema.datacite.org/meta/kernel-4/metadata.xsd">' +
    body.join('') +
    '</resource>\n'
  );
}

/** DataCite `dates`: `Issued` (published) and `Available` (when an embargo ends). */
function dataciteDates(r: CitationRecord): { date: string; dateType: string }[] {
  return [
    ...(r.datePublished ? [{ date: r.datePublished, dateType: 'Issued' }] : []),
    ...(r.embargoUntil ? [{ date: r.embargoUntil, dateType: 'Available' }] : []),
  ];
}
