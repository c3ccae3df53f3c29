import { startTestApp, type TestApp } from '../support/app';
import { rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';
import { CRYSTALS, datasetWithFiles, makePublication, publishNextVersion } from '../support/publications';
import { sha256 } from '../support/files';
import { dataciteJsonProblems } from '../support/datacite-json';

let t: TestApp;
let owner: TestUser;
let reader: TestUser;
let v1: string;
let v2: string;

const BASE = 'https://catalog.example.org';
const TITLE = 'Lysozyme {diffraction} & 100% of the "logs"';
const DESCRIPTION = CRYSTALS.description;

beforeAll(async () => {
  t = await startTestApp({ PUBLISHER_NAME: 'Example Facility', PUBLIC_BASE_URL: BASE });
  owner = await makeUser(t.app);
  reader = await makeUser(t.app);
  const ds = await datasetWithFiles(t, owner, 'crystals', [
    ['a.h5', 'first file'],
    ['b.h5', 'second'],
  ]);
  v1 = await makePublication(t, owner.key, {
    dataset_ids: [ds],
    ...CRYSTALS,
    title: TITLE,
    description: DESCRIPTION,
    related_identifiers: [
      {
        related_identifier: '10.1234/paper',
        related_identifier_type: 'DOI',
        relation_type: 'IsSupplementTo',
      },
    ],
    version: '1.0',
  });
  v2 = await publishNextVersion(t, owner.key, v1, '2.0');
});
afterAll(() => t.close());

async function exported(id: string, format: string): Promise<{ type: string; text: string }> {
  const res = await fetch(`${t.url}/api/v2/publications/${id}/export/${format}`, {
    headers: { authorization: `Bearer ${reader.key}` },
  });
  expect(res.status).toBe(200);
  return { type: res.headers.get('content-type') ?? '', text: await res.text() };
}

const xmlValues = (xml: string, tag: string): string[] =>
  [...xml.matchAll(new RegExp(`<${tag}(?: [^>]*)?>([^<]*)</${tag}>`, 'g'))].map((m) =>
    m[1]
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&'),
  );

test('every format says the same thing, field by field', async () => {
  const landing = `${BASE}/publications/${v1}`;
  const datacite = JSON.parse((await exported(v1, 'datacite-json')).text);
  const xml = (await exported(v1, 'datacite-xml')).text;
  const org = JSON.parse((await exported(v1, 'schema-org')).text);
  const crate = JSON.parse((await exported(v1, 'ro-crate')).text);
  const csl = JSON.parse((await exported(v1, 'csl-json')).text)[0];
  const bib = (await exported(v1, 'bibtex')).text;
  const risText = (await exported(v1, 'ris')).text;
  const risValues = (tag: string) =>
    risText
      .split('\r\n')
      .filter((l) => l.startsWith(`${tag}  - `))
      .map((l) => l.slice(6));
  const root = crate['@graph'].find((e: { '@id': string }) => e['@id'] === landing);

  // title
  expect(datacite.titles).toEqual([{ title: TITLE }]);
  expect(xmlValues(xml, 'title')).toEqual([TITLE]);
  expect(org.name).toBe(TITLE);
  expect(root.name).toBe(TITLE);
  expect(csl.title).toBe(TITLE);
  expect(risValues('TI')).toEqual([TITLE]);
  expect(bib).toContain('title = {{Lysozyme \\{diffraction\\} \\& 100\\% of the "logs"}}');
  // creators, in order, with the ORCID iD
  expect(datacite.creators.map((c: { name: string }) => c.name)).toEqual([
    'Carberry, Josiah',
    'Example Beamline Team',
  ]);
  expect(datacite.creators[0]).toMatchObject({
    familyName: 'Carberry',
    givenName: 'Josiah',
    nameIdentifiers: [
      { nameIdentifier: 'https://orcid.org/0000-0002-1825-0097', nameIdentifierScheme: 'ORCID' },
    ],
    affiliation: [{ name: 'Brown University', affiliationIdentifier: 'https://ror.org/05gq02987' }],
  });
  expect(xmlValues(xml, 'creatorName')).toEqual(['Carberry, Josiah', 'Example Beamline Team']);
  expect(xmlValues(xml, 'nameIdentifier')).toEqual(['https://orcid.org/0000-0002-1825-0097']);
  expect(org.creator.map((c: { name: string }) => c.name)).toEqual([
    'Carberry, Josiah',
    'Example Beamline Team',
  ]);
  expect(org.creator[0]['@id']).toBe('https://orcid.org/0000-0002-1825-0097');
  expect(org.creator[0].affiliation[0]['@id']).toBe('https://ror.org/05gq02987');
  expect(root.author[0]).toEqual({ '@id': 'https://orcid.org/0000-0002-1825-0097' });
  expect(csl.author).toEqual([{ family: 'Carberry', given: 'Josiah' }, { literal: 'Example Beamline Team' }]);
  expect(risValues('AU')).toEqual(['Carberry, Josiah', 'Example Beamline Team']);
  expect(bib).toContain('author = {Carberry, Josiah and Example Beamline Team}');
  // publisher and year
  const year = String(new Date().getUTCFullYear());
  expect(datacite.publisher).toEqual({ name: 'Example Facility' });
  expect(datacite.publicationYear).toBe(year);
  expect(xmlValues(xml, 'publisher')).toEqual(['Example Facility']);
  expect(xmlValues(xml, 'publicationYear')).toEqual([year]);
  expect(org.publisher.name).toBe('Example Facility');
  expect(org.datePublished.slice(0, 4)).toBe(year);
  expect(root.datePublished).toBe(org.datePublished);
  expect(csl.publisher).toBe('Example Facility');
  expect(csl.issued['date-parts'][0][0]).toBe(Number(year));
  expect(risValues('PY')).toEqual([year]);
  expect(bib).toContain(`year = {${year}}`);
  // identifier: without DataCite, the landing page
  expect(datacite.url).toBe(landing);
  expect(datacite).not.toHaveProperty('doi');
  expect(org.url).toBe(landing);
  expect(org.identifier).toBe(landing);
  expect(csl.URL).toBe(landing);
  expect(risValues('UR')).toEqual([landing]);
  expect(bib).toContain(`url = {${landing}}`);
  // license
  expect(datacite.rightsList[0]).toMatchObject({
    rightsIdentifier: 'CC-BY-4.0',
    rightsUri: 'https://spdx.org/licenses/CC-BY-4.0',
  });
  expect(org.license).toBe('https://spdx.org/licenses/CC-BY-4.0');
  expect(root.license).toEqual({ '@id': 'https://spdx.org/licenses/CC-BY-4.0' });
  expect(csl.license).toBe('CC-BY-4.0');
  // keywords, version, description
  expect(datacite.subjects).toEqual([{ subject: 'crystallography' }, { subject: 'lysozyme' }]);
  expect(xmlValues(xml, 'subject')).toEqual(['crystallography', 'lysozyme']);
  expect(org.keywords).toEqual(['crystallography', 'lysozyme']);
  expect(root.keywords).toEqual(['crystallography', 'lysozyme']);
  expect(risValues('KW')).toEqual(['crystallography', 'lysozyme']);
  expect(csl.keyword).toBe('crystallography, lysozyme');
  expect([datacite.version, xmlValues(xml, 'version')[0], org.version, root.version, csl.version]).toEqual(
    Array(5).fill('1.0'),
  );
  expect(risValues('ET')).toEqual(['1.0']);
  expect(datacite.descriptions).toEqual([{ description: DESCRIPTION, descriptionType: 'Abstract' }]);
  expect([org.description, root.description, csl.abstract, risValues('AB')[0]]).toEqual(
    Array(4).fill(DESCRIPTION),
  );
  // files: schema.org distribution and RO-Crate parts, sizes in DataCite
  const files = [
    { name: 'a.h5', size: 10, sha256: sha256('first file') },
    { name: 'b.h5', size: 6, sha256: sha256('second') },
  ];
  expect(
    org.distribution.map((d: Record<string, unknown>) => ({
      type: d['@type'],
      name: d.name,
      size: d.contentSize,
      sha256: d.sha256,
    })),
  ).toEqual(
    files.map((f) => ({ type: 'DataDownload', name: f.name, size: `${f.size} B`, sha256: f.sha256 })),
  );
  const parts = root.hasPart.map((p: { '@id': string }) => p['@id']);
  expect(parts).toEqual(org.distribution.map((d: { contentUrl: string }) => d.contentUrl));
  const crateFiles = crate['@graph'].filter((e: { '@type': string }) => e['@type'] === 'File');
  expect(crateFiles.map((f: Record<string, unknown>) => [f.name, f.contentSize, f.sha256])).toEqual(
    files.map((f) => [f.name, String(f.size), f.sha256]),
  );
  expect(datacite.sizes).toEqual(['2 files', '16 bytes']);
  expect(xmlValues(xml, 'size')).toEqual(['2 files', '16 bytes']);
  // related identifiers: the creators' own, then the version link both ways
  expect(datacite.relatedIdentifiers).toEqual([
    { relatedIdentifier: '10.1234/paper', relatedIdentifierType: 'DOI', relationType: 'IsSupplementTo' },
    {
      relatedIdentifier: `${BASE}/publications/${v2}`,
      relatedIdentifierType: 'URL',
      relationType: 'IsPreviousVersionOf',
    },
  ]);
  expect(xmlValues(xml, 'relatedIdentifier')).toEqual(['10.1234/paper', `${BASE}/publications/${v2}`]);
  const next = JSON.parse((await exported(v2, 'datacite-json')).text);
  expect(next.relatedIdentifiers).toContainEqual({
    relatedIdentifier: landing,
    relatedIdentifierType: 'URL',
    relationType: 'IsNewVersionOf',
  });
});

test('the DataCite record validates against the DataCite JSON schema; RO-Crate is a 1.2 detached crate', async () => {
  for (const id of [v1, v2]) {
    const record = JSON.parse((await exported(id, 'datacite-json')).text);
    expect(dataciteJsonProblems(record)).toEqual([]);
  }
  // the check bites: a record without its titles is refused, naming the field
  const broken = JSON.parse((await exported(v1, 'datacite-json')).text);
  delete broken.titles;
  expect(dataciteJsonProblems(broken).length).toBeGreaterThan(0);
  const crate = JSON.parse((await exported(v1, 'ro-crate')).text);
  expect(crate['@context']).toBe('https://w3id.org/ro/crate/1.2/context');
  const descriptor = crate['@graph'].find((e: { '@id': string }) => e['@id'] === 'ro-crate-metadata.json');
  expect(descriptor).toMatchObject({ conformsTo: { '@id': 'https://w3id.org/ro/crate/1.2' } });
  // detached: the root is an absolute URI, and every entity is named once
  expect(descriptor.about['@id']).toMatch(/^https?:\/\//);
  const ids = crate['@graph'].map((e: { '@id': string }) => e['@id']);
  expect(new Set(ids).size).toBe(ids.length);
});

test('content negotiation on the publication URL; media types; unknown formats and unreadable ones', async () => {
  const ask = (accept: string) =>
    fetch(`${t.url}/api/v2/publications/${v1}`, {
      headers: { authorization: `Bearer ${reader.key}`, accept },
    });
  const bib = await ask('application/x-bibtex');
  expect(bib.headers.get('content-type')).toMatch(/^application\/x-bibtex/);
  expect(await bib.text()).toMatch(/^@misc\{/);
  const crate = await ask('application/ld+json; profile="https://w3id.org/ro/crate"');
  expect(JSON.parse(await crate.text())['@context']).toBe('https://w3id.org/ro/crate/1.2/context');
  const plain = await ask('application/json');
  expect(((await plain.json()) as { id: string }).id).toBe(v1);
  expect((await exported(v1, 'datacite-xml')).type).toMatch(/^application\/vnd\.datacite\.datacite\+xml/);
  expect((await exported(v1, 'csl-json')).type).toMatch(/^application\/vnd\.citationstyles\.csl\+json/);
  const unknown = await rest(t.url, 'GET', `/publications/${v1}/export/pdf`, { key: reader.key });
  expect(unknown.status).toBe(422);
  const draft = (await rest(t.url, 'POST', `/publications/${v2}/versions`, { key: owner.key })).body
    .id as string;
  expect((await rest(t.url, 'GET', `/publications/${draft}/export/bibtex`, { key: reader.key })).status).toBe(
    404,
  );
  // a draft next version is not linked from the published one
  const v2Record = JSON.parse((await exported(v2, 'datacite-json')).text);
  expect(JSON.stringify(v2Record)).not.toContain(draft);
});
