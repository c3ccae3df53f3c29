import { startTestApp, type TestApp } from '../support/app';
import { rest } from '../support/http';
import { makePublication } from '../support/publications';
import { makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { expectSchemaValid } from '../support/xml-schemas';
import { encodeToken } from '../../src/modules/publication/oai-token';
import type { Project } from '../../src/modules/project/project.entity';

// OAI-PMH 2.0 at /oai (docs/publications.md "Harvesting"): every verb and error, both formats,
// sets, from/until, deleted records, stateless tokens (tampered, expired, across a restart) and a
// harvest that pages through every record while another client changes them. Every answer is
// validated against the vendored OAI-PMH, oai_dc schemas (test/support/xsd) at the end.

const BASE = 'https://catalog.example.org';
const HOST = 'catalog.example.org';
const ENV = { PUBLIC_BASE_URL: BASE, PUBLISHER_NAME: 'Example Facility', OAI_PAGE_SIZE: '3' };
const DESCRIPTION = 'Diffraction images of lysozyme crystals collected at 100 K, with the processing logs.';

let t: TestApp;
let owner: TestUser;
let project: Project;
let dataset: string;
/** published in `project`, in id order */
let published: string[];
let withdrawn: string;
let draft: string;
/** every answer, validated against the schemas at the end */
const answers: string[] = [];

const publication = (datasetIds: string[], title: string, publish = true): Promise<string> =>
  makePublication(
    t,
    owner.key,
    {
      dataset_ids: datasetIds,
      title,
      description: DESCRIPTION,
      creators: [{ name: 'Carberry, Josiah', orcid: '0000-0002-1825-0097' }],
      license: 'CC-BY-4.0',
      keywords: ['crystallography'],
    },
    publish,
  );

async function datasetIn(p: Project | null): Promise<string> {
  const r = await rest(t.url, 'POST', '/datasets', {
    key: owner.key,
    body: { dataset_name: unique('oai'), ...(p ? { project_id: p.projectId } : {}) },
  });
  expect(r.status).toBe(201);
  return r.body.unique_id as string;
}

async function oai(query: string, init?: RequestInit): Promise<string> {
  const res = await fetch(`${t.url}/oai${query ? `?${query}` : ''}`, init);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/xml; charset=utf-8/);
  const text = await res.text();
  answers.push(text);
  return text;
}

const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
const values = (xml: string, tag: string): string[] =>
  [...xml.matchAll(new RegExp(`<${tag}(?: [^>]*)?>([^<]*)</${tag}>`, 'g'))].map((m) => decode(m[1]));
const errorCode = (xml: string): string | null => /<error code="([^"]+)"/.exec(xml)?.[1] ?? null;
const requestAttributes = (xml: string): string => /<request([^>]*)>/.exec(xml)?.[1] ?? '';
const idsOf = (xml: string): string[] =>
  values(xml, 'identifier')
    .filter((i) => i.startsWith(`oai:${HOST}:`))
    .map((i) => i.slice(`oai:${HOST}:`.length));
const deletedIds = (xml: string): string[] =>
  [...xml.matchAll(/<header status="deleted"><identifier>oai:[^:]+:([^<]+)<\/identifier>/g)].map((m) => m[1]);

interface Token {
  value: string;
  cursor: number | null;
  size: number | null;
  expires: string | null;
}
function tokenOf(xml: string): Token | null {
  const m = /<resumptionToken([^>]*)>([^<]*)<\/resumptionToken>/.exec(xml);
  if (!m) return null;
  const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(m[1])?.[1] ?? null;
  return {
    value: decode(m[2]),
    cursor: attr('cursor') === null ? null : Number(attr('cursor')),
    size: attr('completeListSize') === null ? null : Number(attr('completeListSize')),
    expires: attr('expirationDate'),
  };
}

/** Pages through a list to its end: the identifiers of every page, and the tokens. */
async function harvest(
  verb: string,
  args: string,
  between: (page: number) => Promise<void> = () => Promise.resolve(),
): Promise<{ pages: string[][]; deleted: string[]; tokens: Token[] }> {
  const pages: string[][] = [];
  const deleted: string[] = [];
  const tokens: Token[] = [];
  let xml = await oai(`verb=${verb}&${args}`);
  for (;;) {
    expect(errorCode(xml)).toBeNull();
    pages.push(idsOf(xml.replace(/<metadata>[\s\S]*?<\/metadata>/g, '')));
    deleted.push(...deletedIds(xml));
    const token = tokenOf(xml);
    if (token) tokens.push(token);
    if (!token?.value) break;
    await between(pages.length - 1);
    xml = await oai(`verb=${verb}&resumptionToken=${encodeURIComponent(token.value)}`);
  }
  return { pages, deleted, tokens };
}

beforeAll(async () => {
  t = await startTestApp(ENV);
  owner = await makeUser(t.app);
  project = await makeProject(t.app, owner.user);
  dataset = await datasetIn(project);
  draft = await publication([dataset], 'A draft nobody harvests', false);
  published = [];
  for (let i = 0; i < 7; i++) published.push(await publication([dataset], `Lysozyme <${i}> & "friends"`));
  withdrawn = published[2];
  const w = await rest(t.url, 'POST', `/publications/${withdrawn}/withdraw`, {
    key: owner.key,
    body: { reason: 'the images were of another crystal' },
  });
  expect(w.status).toBe(200);
});
afterAll(() => t.close());

test('Identify names the repository, its base URL, persistent deletions and second granularity', async () => {
  const xml = await oai('verb=Identify');
  expect(errorCode(xml)).toBeNull();
  expect(values(xml, 'repositoryName')).toEqual(['Example Facility']);
  expect(values(xml, 'baseURL')).toEqual([`${BASE}/oai`]);
  expect(values(xml, 'protocolVersion')).toEqual(['2.0']);
  expect(values(xml, 'adminEmail')).toEqual(['admin@catalog.example.org']);
  expect(values(xml, 'deletedRecord')).toEqual(['persistent']);
  expect(values(xml, 'granularity')).toEqual(['YYYY-MM-DDThh:mm:ssZ']);
  expect(requestAttributes(xml)).toBe(' verb="Identify"');
  // a lower bound of every datestamp
  const earliest = values(xml, 'earliestDatestamp')[0];
  const all = await harvest('ListIdentifiers', 'metadataPrefix=oai_dc');
  expect(all.pages.flat().length).toBeGreaterThan(0);
  const stamps = values(answers.slice(-all.pages.length).join(''), 'datestamp');
  for (const s of stamps) expect(s >= earliest).toBe(true);
});

test('ListMetadataFormats: oai_dc and oai_datacite, for the repository and for one record', async () => {
  for (const q of [
    'verb=ListMetadataFormats',
    `verb=ListMetadataFormats&identifier=oai:${HOST}:${published[0]}`,
  ]) {
    const xml = await oai(q);
    expect(values(xml, 'metadataPrefix')).toEqual(['oai_dc', 'oai_datacite']);
    expect(values(xml, 'metadataNamespace')).toEqual([
      'http://www.openarchives.org/OAI/2.0/oai_dc/',
      'http://datacite.org/schema/kernel-4',
    ]);
  }
  // a deleted record still has its formats (its header is disseminated)
  expect(errorCode(await oai(`verb=ListMetadataFormats&identifier=oai:${HOST}:${withdrawn}`))).toBeNull();
  for (const id of [
    `oai:${HOST}:${draft}`,
    `oai:${HOST}:00000000000000000000000000`,
    `oai:elsewhere.org:${published[0]}`,
  ])
    expect(errorCode(await oai(`verb=ListMetadataFormats&identifier=${encodeURIComponent(id)}`))).toBe(
      'idDoesNotExist',
    );
});

test('ListSets: one set per project with published records, named by the project', async () => {
  const xml = await oai('verb=ListSets');
  expect(errorCode(xml)).toBeNull();
  const specs = values(xml, 'setSpec');
  expect(specs).toContain(project.uniqueId);
  expect(values(xml, 'setName')[specs.indexOf(project.uniqueId)]).toBe(project.title);
});

test("GetRecord in oai_dc: the citation record as Dublin Core, with the record's set", async () => {
  const xml = await oai(`verb=GetRecord&identifier=oai:${HOST}:${published[1]}&metadataPrefix=oai_dc`);
  expect(errorCode(xml)).toBeNull();
  expect(requestAttributes(xml)).toContain(`identifier="oai:${HOST}:${published[1]}"`);
  expect(values(xml, 'setSpec')).toEqual([project.uniqueId]);
  expect(values(xml, 'dc:title')).toEqual(['Lysozyme <1> & "friends"']);
  expect(values(xml, 'dc:creator')).toEqual(['Carberry, Josiah']);
  expect(values(xml, 'dc:publisher')).toEqual(['Example Facility']);
  expect(values(xml, 'dc:type')).toEqual(['Dataset']);
  expect(values(xml, 'dc:identifier')).toEqual([`${BASE}/publications/${published[1]}`]);
  expect(values(xml, 'dc:rights')).toContain('https://spdx.org/licenses/CC-BY-4.0');
  expect(values(xml, 'dc:subject')).toEqual(['crystallography']);
});

test('GetRecord in oai_datacite: the kernel-4 resource of the DataCite renderer', async () => {
  const xml = await oai(`verb=GetRecord&identifier=oai:${HOST}:${published[1]}&metadataPrefix=oai_datacite`);
  expect(errorCode(xml)).toBeNull();
  expect(xml).toContain('<metadata><resource xmlns="http://datacite.org/schema/kernel-4"');
  expect(xml).not.toContain('<?xml version="1.0" encoding="UTF-8"?>\n<resource');
  expect(values(xml, 'title')).toEqual(['Lysozyme <1> & "friends"']);
  expect(values(xml, 'publisher')).toEqual(['Example Facility']);
});

test('a withdrawn publication is a deleted record: its header only; drafts are no records', async () => {
  for (const prefix of ['oai_dc', 'oai_datacite']) {
    const xml = await oai(`verb=GetRecord&identifier=oai:${HOST}:${withdrawn}&metadataPrefix=${prefix}`);
    expect(deletedIds(xml)).toEqual([withdrawn]);
    expect(xml).not.toContain('<metadata>');
  }
  const xml = await oai(`verb=GetRecord&identifier=oai:${HOST}:${draft}&metadataPrefix=oai_dc`);
  expect(errorCode(xml)).toBe('idDoesNotExist');
});

test('ListRecords and ListIdentifiers of a set: pages of 3 in id order, cursor and size, an empty token at the end', async () => {
  for (const verb of ['ListIdentifiers', 'ListRecords']) {
    for (const prefix of ['oai_dc', 'oai_datacite']) {
      const h = await harvest(verb, `metadataPrefix=${prefix}&set=${project.uniqueId}`);
      expect(h.pages.map((p) => p.length)).toEqual([3, 3, 1]);
      expect(h.pages.flat()).toEqual(published);
      expect(h.deleted).toEqual([withdrawn]);
      expect(h.tokens.map((k) => [k.cursor, k.size])).toEqual([
        [0, 7],
        [3, 7],
        [6, 7],
      ]);
      expect(h.tokens.at(-1)?.value).toBe('');
      // valid for at least 24 hours
      expect(Date.parse(h.tokens[0].expires ?? '')).toBeGreaterThanOrEqual(
        Date.now() + 24 * 3600_000 - 60_000,
      );
    }
  }
});

test('from and until bound the datestamps, at day or second granularity (UTC)', async () => {
  const today = new Date().toISOString().slice(0, 10);
  const set = `set=${project.uniqueId}`;
  const all = await harvest('ListIdentifiers', `metadataPrefix=oai_dc&${set}&from=${today}`);
  expect(all.pages.flat()).toEqual(published);
  const stamps = values(answers.slice(-all.pages.length).join(''), 'datestamp').sort();
  const [first, last] = [stamps[0], stamps.at(-1) ?? ''];
  // the inclusive bounds of the latest datestamp select it (and what shares it)
  const latest = await harvest('ListIdentifiers', `metadataPrefix=oai_dc&${set}&from=${last}&until=${last}`);
  expect(latest.pages.flat().length).toBeGreaterThan(0);
  expect(latest.pages.flat().length).toBeLessThanOrEqual(published.length);
  const upToFirst = await harvest('ListIdentifiers', `metadataPrefix=oai_dc&${set}&until=${first}`);
  expect(upToFirst.pages.flat().length).toBeGreaterThan(0);
  for (const q of [`from=2999-01-01`, `until=2000-01-01`, `from=2999-01-01T00:00:00Z`])
    expect(errorCode(await oai(`verb=ListRecords&metadataPrefix=oai_dc&${set}&${q}`))).toBe('noRecordsMatch');
  for (const q of [
    `from=${today}&until=${last}`, // two granularities
    'from=2026-02-30',
    'from=2026-01-01T00:00:00',
    'from=2026-01-01T00:00:00.000Z',
    'until=yesterday',
    'from=2026-01-02&until=2026-01-01',
  ]) {
    const xml = await oai(`verb=ListRecords&metadataPrefix=oai_dc&${q}`);
    expect([q, errorCode(xml)]).toEqual([q, 'badArgument']);
    expect(requestAttributes(xml)).toBe('');
  }
});

test('every protocol error: badVerb, badArgument, cannotDisseminateFormat, noRecordsMatch, noSetHierarchy-free sets', async () => {
  const cases: [string, string][] = [
    ['', 'badVerb'],
    ['verb=Frobnicate', 'badVerb'],
    ['verb=Identify&verb=Identify', 'badVerb'],
    ['verb=Identify&metadataPrefix=oai_dc', 'badArgument'],
    ['verb=ListRecords', 'badArgument'],
    ['verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=oai_dc', 'badArgument'],
    ['verb=ListRecords&metadataPrefix=oai_dc&resumptionToken=abc', 'badArgument'],
    ['verb=ListRecords&metadataPrefix=oai_dc&page=2', 'badArgument'],
    ['verb=GetRecord&metadataPrefix=oai_dc', 'badArgument'],
    [`verb=GetRecord&identifier=oai:${HOST}:${published[0]}`, 'badArgument'],
    ['verb=ListRecords&metadataPrefix=oai%20dc', 'badArgument'],
    ['verb=ListRecords&metadataPrefix=oai_dc&set=not%20a%20set', 'badArgument'],
    ['verb=ListSets&set=x', 'badArgument'],
    ['verb=ListRecords&metadataPrefix=marc21', 'cannotDisseminateFormat'],
    [`verb=GetRecord&identifier=oai:${HOST}:${published[0]}&metadataPrefix=mods`, 'cannotDisseminateFormat'],
    ['verb=ListIdentifiers&metadataPrefix=oai_dc&set=nosuchset', 'noRecordsMatch'],
    ['verb=GetRecord&identifier=nonsense&metadataPrefix=oai_dc', 'idDoesNotExist'],
  ];
  for (const [q, code] of cases) {
    const xml = await oai(q);
    expect([q, errorCode(xml)]).toEqual([q, code]);
    // badVerb and badArgument answers echo no arguments (the protocol's rule)
    if (code === 'badVerb' || code === 'badArgument') expect(requestAttributes(xml)).toBe('');
    else expect(requestAttributes(xml)).toContain('verb=');
  }
});

test('POST of a form is the same request; any other body is refused with 415', async () => {
  const body = new URLSearchParams({
    verb: 'ListIdentifiers',
    metadataPrefix: 'oai_dc',
    set: project.uniqueId,
  });
  const xml = await oai('', { method: 'POST', body });
  expect(idsOf(xml)).toEqual(published.slice(0, 3));
  const token = tokenOf(xml)?.value ?? '';
  const next = await oai('', {
    method: 'POST',
    body: new URLSearchParams({ verb: 'ListIdentifiers', resumptionToken: token }),
  });
  expect(idsOf(next)).toEqual(published.slice(3, 6));
  const json = await fetch(`${t.url}/oai`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ verb: 'Identify' }),
  });
  expect(json.status).toBe(415);
});

test('a resumption token changed in any way, used with another verb, or expired is badResumptionToken', async () => {
  const first = await oai(`verb=ListIdentifiers&metadataPrefix=oai_dc&set=${project.uniqueId}`);
  const token = tokenOf(first)?.value ?? '';
  const [body, sig] = token.split('.');
  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  // a token for another set, signed with a guessed key
  const forged = encodeToken(Buffer.alloc(32), {
    verb: 'ListIdentifiers',
    prefix: 'oai_dc',
    set: null,
    from: null,
    until: null,
    after: '',
    cursor: 0,
    total: null,
    issued: Date.now(),
  });
  for (const bad of [flip(body, 5), `${body}.${flip(sig, 3)}`, body, `${token}.x`, 'garbage', forged]) {
    const xml = await oai(`verb=ListIdentifiers&resumptionToken=${encodeURIComponent(bad)}`);
    expect(errorCode(xml)).toBe('badResumptionToken');
  }
  expect(errorCode(await oai(`verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`))).toBe(
    'badResumptionToken',
  );
  // the service's own key (kept in the database): a fresh token works, one issued 8 days ago does not
  const em = t.app.orm.em.fork();
  const [row] = await em
    .getConnection()
    .execute<{ value: string }[]>(`select value from service_setting where key = 'oai_token_secret'`);
  const key = Buffer.from(row.value, 'base64url');
  const position = {
    verb: 'ListIdentifiers' as const,
    prefix: 'oai_dc',
    set: project.uniqueId,
    from: null,
    until: null,
    after: published[2],
    cursor: 3,
    total: 7,
  };
  const fresh = encodeToken(key, { ...position, issued: Date.now() });
  expect(idsOf(await oai(`verb=ListIdentifiers&resumptionToken=${encodeURIComponent(fresh)}`))).toEqual(
    published.slice(3, 6),
  );
  const old = encodeToken(key, { ...position, issued: Date.now() - 8 * 24 * 3600_000 });
  expect(errorCode(await oai(`verb=ListIdentifiers&resumptionToken=${encodeURIComponent(old)}`))).toBe(
    'badResumptionToken',
  );
});

test('a resumption token survives a restart of the service', async () => {
  const first = await oai(`verb=ListRecords&metadataPrefix=oai_dc&set=${project.uniqueId}`);
  const token = tokenOf(first)?.value ?? '';
  await t.close();
  t = await startTestApp(ENV);
  const next = await oai(`verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`);
  expect(errorCode(next)).toBeNull();
  expect(idsOf(next.replace(/<metadata>[\s\S]*?<\/metadata>/g, ''))).toEqual(published.slice(3, 6));
});

test('a harvest while records change: no duplicate and no gap', async () => {
  // a project of its own: 12 published, 2 drafts made before the harvest began
  const other = await makeProject(t.app, owner.user);
  const ds = await datasetIn(other);
  const earlyDrafts = [
    await publication([ds], 'early draft 1', false),
    await publication([ds], 'early draft 2', false),
  ];
  const before: string[] = [];
  for (let i = 0; i < 12; i++) before.push(await publication([ds], `harvested ${i}`));
  // datestamps are to the second: the harvest begins in a later second than these were published
  await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
  const seen: string[] = [];
  const added: string[] = [];
  // another client changes the records between the harvester's pages
  const changes: (() => Promise<void>)[] = [
    // withdraw one already harvested, and one not reached yet
    async () => {
      for (const id of [before[0], before[10]])
        await rest(t.url, 'POST', `/publications/${id}/withdraw`, {
          key: owner.key,
          body: { reason: 'retracted' },
        });
    },
    // publish a new version of one already harvested (its datestamp changes) and one not reached yet
    async () => {
      for (const id of [before[1], before[11]]) {
        const v = (await rest(t.url, 'POST', `/publications/${id}/versions`, { key: owner.key })).body
          .id as string;
        expect((await rest(t.url, 'POST', `/publications/${v}/publish`, { key: owner.key })).status).toBe(
          200,
        );
        added.push(v);
      }
    },
    // publish the drafts made before the harvest began, and a new one
    async () => {
      for (const id of earlyDrafts)
        expect((await rest(t.url, 'POST', `/publications/${id}/publish`, { key: owner.key })).status).toBe(
          200,
        );
      added.push(await publication([ds], 'published during the harvest'));
    },
  ];
  const h = await harvest('ListRecords', `metadataPrefix=oai_dc&set=${other.uniqueId}`, async (page) => {
    await changes[page]?.();
  });
  seen.push(...h.pages.flat());
  // no duplicate
  expect(new Set(seen).size).toBe(seen.length);
  // no gap: every record there when the harvest began, exactly once
  for (const id of before) expect(seen.filter((s) => s === id)).toHaveLength(1);
  // changes the harvester had not reached yet are what it reads: the withdrawn one is deleted
  expect(h.deleted).toEqual([before[10]]);
  // records made during the harvest come after the cursor (ids grow): each once
  for (const id of added) expect(seen).toContain(id);
  // the drafts made before the harvest began sort before its cursor: the next incremental
  // harvest (from the first page's responseDate) has them, and only what changed since
  expect(seen).not.toContain(earlyDrafts[0]);
  const since = values(answers[answers.length - h.pages.length], 'responseDate')[0];
  const next = await harvest('ListIdentifiers', `metadataPrefix=oai_dc&set=${other.uniqueId}&from=${since}`);
  const again = next.pages.flat();
  for (const id of [...earlyDrafts, before[0], before[1], before[10], before[11], ...added])
    expect(again).toContain(id);
  for (const id of before.slice(2, 10)) expect(again).not.toContain(id);
  // the cursor counted every record sent
  const last = h.tokens.at(-1);
  expect((last?.cursor ?? 0) + (h.pages.at(-1)?.length ?? 0)).toBe(seen.length);
});

test('every answer validates against the OAI-PMH and oai_dc schemas (libxml2, vendored XSDs)', () => {
  const datacite = answers.filter((a) => a.includes('xmlns="http://datacite.org/schema/kernel-4"'));
  const rest_ = answers.filter((a) => !a.includes('xmlns="http://datacite.org/schema/kernel-4"'));
  expect(datacite.length).toBeGreaterThan(0);
  expect(rest_.length).toBeGreaterThan(50);
  expectSchemaValid('oai-pmh-oai_dc.xsd', rest_);
  expectSchemaValid('oai-pmh-oai_datacite.xsd', datacite);
});

test('the schemas catch what is wrong: an unknown error code, a malformed datestamp, Dublin Core outside its namespace', () => {
  const good = answers.find((a) => a.includes('<GetRecord>') && a.includes('oai_dc:dc')) ?? '';
  expect(good).not.toBe('');
  for (const bad of [
    good.replace('<GetRecord>', '<GetRecord><error code="oops">x</error>'),
    good.replace(/<datestamp>(\d{4}-\d{2}-\d{2})T[^<]*<\/datestamp>/, '<datestamp>$1 12:00</datestamp>'),
    good.replace(/<dc:title>/, '<dc:heading>x</dc:heading><dc:title>'),
  ])
    expect(() => expectSchemaValid('oai-pmh-oai_dc.xsd', [bad])).toThrow(/is not valid/);
});
