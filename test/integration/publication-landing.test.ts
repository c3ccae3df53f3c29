import { parse, type DefaultTreeAdapterMap } from 'parse5';
import * as roCrate from 'ro-crate';
import { startTestApp, type TestApp } from '../support/app';
import { rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';
import { CRYSTALS, datasetWithFiles, makePublication, publishNextVersion } from '../support/publications';
import { formUpload, makeDataset, sha256 } from '../support/files';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let v1: string;
let v2: string;
let draft: string;
let gone: string;
let ds: string;
let publicDs: string;
let privateDs: string;

const BASE = 'https://catalog.example.org';
// a title that would end a <script> element if the JSON-LD were written as it is
const TITLE = 'Lysozyme </script><script>alert(1)</script> & <!-- "logs"';
const DESCRIPTION = CRYSTALS.description;
const FILES: [string, string][] = [
  ['a.h5', 'first file'],
  ['b.h5', 'second'],
];

const METADATA = { title: TITLE, ...CRYSTALS, version: '1.0' };

const publication = (key: string, datasetId: string, publish: boolean): Promise<string> =>
  makePublication(t, key, { dataset_ids: [datasetId], ...METADATA }, publish);

beforeAll(async () => {
  t = await startTestApp({ PUBLISHER_NAME: 'Example Facility', PUBLIC_BASE_URL: BASE });
  owner = await makeUser(t.app);
  stranger = await makeUser(t.app);
  ds = await datasetWithFiles(t, owner, 'crystals', FILES);
  v1 = await publication(owner.key, ds, true);
  v2 = await publishNextVersion(t, owner.key, v1, '2.0');
  draft = await publication(owner.key, ds, false);
  gone = await publication(owner.key, ds, true);
  const withdrawn = await rest(t.url, 'POST', `/publications/${gone}/withdraw`, {
    key: owner.key,
    body: { reason: 'The calibration was wrong <b>badly</b>' },
  });
  expect(withdrawn.status).toBe(200);

  publicDs = await makeDataset(t, owner, 'open crystals');
  const up = await formUpload(t.url, owner.key, publicDs, [{ name: 'open.h5', data: Buffer.from('open') }]);
  expect(up.status).toBe(201);
  expect((await rest(t.url, 'PUT', `/resources/${publicDs}/access/public`, { key: owner.key })).status).toBe(
    200,
  );
  privateDs = await makeDataset(t, owner, 'closed crystals');
});
afterAll(() => t.close());

/** A GET of a path outside /api, as a crawler sends it: no credential unless given. */
async function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(`${t.url}${path}`, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

// --- a tiny reader of parse5's tree

function* walk(node: Node): Generator<Element> {
  if ('tagName' in node) yield node;
  if ('childNodes' in node) for (const child of node.childNodes) yield* walk(child);
  if ('content' in node && node.content) yield* walk(node.content);
}
const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;
function text(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  return 'childNodes' in node ? node.childNodes.map(text).join('') : '';
}
const elements = (html: string) => [...walk(parse(html))];

/** The links of a `Link` header: target and parameters (RFC 8288, as the landing page writes them). */
function links(header: string | null): { href: string; params: Record<string, string> }[] {
  if (!header) return [];
  return [...header.matchAll(/<([^>]*)>((?:\s*;\s*[a-z-]+="[^"]*")*)/g)].map((m) => ({
    href: m[1],
    params: Object.fromEntries([...m[2].matchAll(/([a-z-]+)="([^"]*)"/g)].map((p) => [p[1], p[2]])),
  }));
}
const rel = (all: ReturnType<typeof links>, name: string) => all.filter((l) => l.params.rel === name);

describe('the landing page, read without JavaScript as a crawler reads it', () => {
  test('is server-rendered HTML with the title, citation, creators, files and versions', async () => {
    const res = await get(`/publications/${v1}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('vary')).toMatch(/Accept/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    const els = elements(res.text);
    expect(els.find((e) => e.tagName === 'html')?.attrs).toContainEqual({ name: 'lang', value: 'en' });
    const h1 = els.filter((e) => e.tagName === 'h1');
    expect(h1.map(text)).toEqual([TITLE]);
    expect(els.find((e) => e.tagName === 'title') && text(els.find((e) => e.tagName === 'title')!)).toBe(
      TITLE,
    );
    const canonical = els.find((e) => e.tagName === 'link' && attr(e, 'rel') === 'canonical');
    expect(canonical && attr(canonical, 'href')).toBe(`${BASE}/publications/${v1}`);
    const description = els.find((e) => e.tagName === 'meta' && attr(e, 'name') === 'description');
    expect(description && attr(description, 'content')).toBe(DESCRIPTION);
    // no script but the JSON-LD data block and the copy button's file (no web-app bundle)
    const scripts = els.filter((e) => e.tagName === 'script');
    expect(scripts.map((s) => attr(s, 'src') ?? attr(s, 'type'))).toEqual([
      'application/ld+json',
      '/landing/copy-citation.js',
    ]);
    expect(res.text).not.toMatch(/\/assets\//);
    const citation = els.find((e) => attr(e, 'id') === 'citation');
    expect(citation && text(citation)).toBe(
      `Carberry, J. & Example Beamline Team (${new Date().getUTCFullYear()}). ${TITLE} (Version 1.0). Example Facility. ${BASE}/publications/${v1}`,
    );
    const hrefs = els.filter((e) => e.tagName === 'a').map((a) => attr(a, 'href'));
    expect(hrefs).toContain('https://orcid.org/0000-0002-1825-0097');
    expect(hrefs).toContain('https://ror.org/05gq02987');
    expect(hrefs).toContain('https://spdx.org/licenses/CC-BY-4.0');
    expect(hrefs).toContain(`/datasets/${ds}`);
    expect(hrefs).toContain(`${BASE}/publications/${v2}`); // the next version
    const body = text(els.find((e) => e.tagName === 'body')!);
    for (const [name, data] of FILES) {
      expect(body).toContain(name);
      expect(body).toContain(sha256(Buffer.from(data)));
    }
    expect(body).toContain('crystals');
    expect(body).toContain('Example Foundation');
    expect(body).toContain('lysozyme');
    // the next version links back
    const next = elements((await get(`/publications/${v2}`)).text);
    expect(next.filter((e) => e.tagName === 'a').map((a) => attr(a, 'href'))).toContain(
      `${BASE}/publications/${v1}`,
    );
  });

  test('carries exactly one schema.org Dataset JSON-LD, equal to the schema-org export', async () => {
    const res = await get(`/publications/${v1}`);
    const blocks = elements(res.text).filter(
      (e) => e.tagName === 'script' && attr(e, 'type') === 'application/ld+json',
    );
    expect(blocks).toHaveLength(1);
    const inPage = JSON.parse(text(blocks[0])) as Record<string, unknown>;
    expect(inPage['@type']).toBe('Dataset');
    expect(inPage.name).toBe(TITLE);
    // `</script>` in the data cannot end the element: every < is written \u003c
    expect(text(blocks[0])).not.toContain('<');
    const explicit = await get(`/publications/${v1}/export/schema-org`);
    expect(explicit.status).toBe(200);
    expect(inPage).toEqual(JSON.parse(explicit.text));
    const api = await rest(t.url, 'GET', `/publications/${v1}/export/schema-org`, { key: stranger.key });
    expect(inPage).toEqual(api.body);
  });

  test('sends FAIR Signposting links (levels 1 and 2) and a linkset that agrees', async () => {
    const res = await get(`/publications/${v1}`);
    const all = links(res.headers.get('link'));
    const url = `${BASE}/publications/${v1}`;
    expect(rel(all, 'cite-as').map((l) => l.href)).toEqual([url]);
    const described = rel(all, 'describedby');
    expect(described.map((l) => l.href)).toEqual(
      ['datacite-json', 'datacite-xml', 'schema-org', 'ro-crate', 'bibtex', 'ris', 'csl-json'].map(
        (f) => `${url}/export/${f}`,
      ),
    );
    expect(described.every((l) => l.params.type)).toBe(true);
    expect(described.find((l) => l.href.endsWith('ro-crate'))?.params).toMatchObject({
      type: 'application/ld+json',
      profile: 'https://w3id.org/ro/crate',
    });
    const items = rel(all, 'item').map((l) => l.href);
    expect(items).toHaveLength(FILES.length);
    for (const i of items) expect(i).toMatch(new RegExp(`^${BASE}/api/v2/files/[0-9a-z]{26}/download$`));
    expect(rel(all, 'license').map((l) => l.href)).toEqual(['https://spdx.org/licenses/CC-BY-4.0']);
    expect(rel(all, 'author').map((l) => l.href)).toEqual(['https://orcid.org/0000-0002-1825-0097']);
    expect(rel(all, 'type').map((l) => l.href)).toEqual([
      'https://schema.org/Dataset',
      'https://schema.org/AboutPage',
    ]);
    expect(rel(all, 'linkset')).toEqual([
      { href: `${url}/linkset`, params: { rel: 'linkset', type: 'application/linkset+json' } },
    ]);

    const set = await get(`/publications/${v1}/linkset`);
    expect(set.status).toBe(200);
    expect(set.headers.get('content-type')).toMatch(/^application\/linkset\+json/);
    const doc = JSON.parse(set.text) as { linkset: Record<string, unknown>[] };
    const anchor = doc.linkset.find((l) => l.anchor === url) as Record<string, { href: string }[]>;
    for (const name of ['cite-as', 'describedby', 'item', 'license', 'author', 'type'])
      expect(anchor[name].map((l) => l.href)).toEqual(rel(all, name).map((l) => l.href));
    for (const i of items)
      expect(doc.linkset.find((l) => l.anchor === i)).toEqual({
        anchor: i,
        collection: [{ href: url, type: 'text/html' }],
      });
  });

  test('the copy button script and the style sheet are files (no inline script)', async () => {
    const js = await get('/landing/copy-citation.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.text).toContain('clipboard');
    const css = await get('/landing/landing.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });

  test('a withdrawn publication is a 410 tombstone: the citation and the reason, no files', async () => {
    const res = await get(`/publications/${gone}`, { accept: 'text/html' });
    expect(res.status).toBe(410);
    const els = elements(res.text);
    const body = text(els.find((e) => e.tagName === 'body')!);
    expect(body).toContain('The calibration was wrong <b>badly</b>'); // as text, escaped
    expect(els.some((e) => e.tagName === 'b')).toBe(false);
    expect(
      els.find((e) => attr(e, 'id') === 'citation') && text(els.find((e) => attr(e, 'id') === 'citation')!),
    ).toContain(`${BASE}/publications/${gone}`);
    for (const [name, data] of FILES) {
      expect(body).not.toContain(name);
      expect(body).not.toContain(sha256(Buffer.from(data)));
    }
    expect(els.some((e) => attr(e, 'type') === 'application/ld+json')).toBe(false);
    expect(rel(links(res.headers.get('link')), 'cite-as').map((l) => l.href)).toEqual([
      `${BASE}/publications/${gone}`,
    ]);
    expect(rel(links(res.headers.get('link')), 'item')).toEqual([]);
  });

  test('a draft is a 404 like an id nothing has, even to its creator', async () => {
    const missing = 'zzzzzzzzzzzzzzzzzzzzzzzzz0';
    const asMissing = await get(`/publications/${missing}`, { accept: 'text/html' });
    expect(asMissing.status).toBe(404);
    for (const headers of [{ accept: 'text/html' }, { authorization: `Bearer ${owner.key}` }] as Record<
      string,
      string
    >[]) {
      const res = await get(`/publications/${draft}`, headers);
      expect(res.status).toBe(404);
      expect(res.text.split(draft).join('<id>')).toBe(asMissing.text.split(missing).join('<id>'));
    }
    expect((await get(`/publications/not-an-id`)).status).toBe(404);
    expect((await get(`/publications/${draft}/linkset`)).status).toBe(404);
    expect((await get(`/publications/${draft}/export/bibtex`)).status).toBe(404);
    // its explicit export with a key that may read it
    const api = await rest(t.url, 'GET', `/publications/${draft}/export/bibtex`, { key: owner.key });
    expect(api.status).toBe(200);
  });

  test('an unknown query parameter is refused', async () => {
    expect((await get(`/publications/${v1}?utm=1`)).status).toBe(422);
    expect((await get(`/publications/${v1}/linkset?x=1`)).status).toBe(422);
  });
});

describe('content negotiation on /publications/{id}', () => {
  const TYPES: [string, string][] = [
    ['datacite-json', 'application/vnd.datacite.datacite+json'],
    ['datacite-xml', 'application/vnd.datacite.datacite+xml'],
    ['schema-org', 'application/ld+json'],
    ['ro-crate', 'application/ld+json; profile="https://w3id.org/ro/crate"'],
    ['bibtex', 'application/x-bibtex'],
    ['ris', 'application/x-research-info-systems'],
    ['csl-json', 'application/vnd.citationstyles.csl+json'],
  ];

  test.each(TYPES)('Accept asks %s: the same text as its explicit URL', async (format, type) => {
    const res = await get(`/publications/${v1}`, { accept: type });
    expect(res.status).toBe(200);
    expect(res.headers.get('vary')).toMatch(/Accept/);
    expect(res.headers.get('content-type')).toContain(type.split(';')[0]);
    const explicit = await get(`/publications/${v1}/export/${format}`);
    expect(res.text).toBe(explicit.text);
  });

  test('anything else is the HTML page', async () => {
    for (const accept of ['text/html', 'application/json', '*/*', '']) {
      const res = await get(`/publications/${v1}`, accept ? { accept } : {});
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });

  test('a draft asked for a format is a 404 too', async () => {
    expect((await get(`/publications/${draft}`, { accept: 'application/x-bibtex' })).status).toBe(404);
  });
});

describe('the API: published publications need no key', () => {
  test('anonymous reads of a published one, its exports and the list; drafts stay closed', async () => {
    expect((await rest(t.url, 'GET', `/publications/${v1}`)).status).toBe(200);
    expect((await rest(t.url, 'GET', `/publications/${v1}/export/ris`)).status).toBe(200);
    expect((await rest(t.url, 'GET', `/publications/${gone}`)).body.state).toBe('withdrawn');
    const list = await rest(t.url, 'GET', '/publications');
    expect(list.status).toBe(200);
    const ids = (list.body.items as { id: string }[]).map((p) => p.id);
    expect(ids).toContain(v1);
    expect(ids).not.toContain(draft);
    expect((await rest(t.url, 'GET', `/publications/${draft}`)).status).toBe(404);
    expect((await rest(t.url, 'GET', `/publications/${draft}/export/ris`)).status).toBe(404);
    expect((await rest(t.url, 'GET', `/publications/${draft}`, { key: stranger.key })).status).toBe(404);
    expect((await rest(t.url, 'GET', `/publications/${draft}`, { key: owner.key })).status).toBe(200);
    // a bad key is still a 401, and writes still need one
    expect((await rest(t.url, 'GET', `/publications/${v1}`, { key: 'nonsense' })).status).toBe(401);
    expect((await rest(t.url, 'POST', `/publications/${v1}/versions`)).status).toBe(401);
  });
});

/** The `ro-crate` package's validator (its typings leave it out). */
interface CrateValidator {
  parseJSON(doc: unknown): void;
  rootDataEntity(): void;
  results: { status: string; message: string }[];
}
const { Validator } = roCrate as unknown as { Validator: new () => CrateValidator };

/**
 * The RO-Crate checks of the `ro-crate` package's validator that need no network (its context
 * check fetches the context): the document is an RO-Crate, and the root data entity has every
 * property 1.2 requires. No error.
 */
function crateErrors(doc: unknown): string[] {
  const v = new Validator();
  v.parseJSON(doc);
  v.rootDataEntity();
  return v.results.filter((r) => r.status === 'error').map((r) => r.message);
}

describe('datasets in schema.org and RO-Crate', () => {
  test('a public dataset is exported to anonymous readers, from the same mapping', async () => {
    const org = await rest(t.url, 'GET', `/datasets/${publicDs}/export/schema-org`);
    expect(org.status).toBe(200);
    expect(org.headers.get('content-type')).toMatch(/^application\/ld\+json/);
    const doc = org.body as Record<string, unknown>;
    expect(doc).toMatchObject({
      '@type': 'Dataset',
      name: 'open crystals',
      url: `${BASE}/datasets/${publicDs}`,
      publisher: { '@type': 'Organization', name: 'Example Facility' },
    });
    expect(doc.license).toBeUndefined();
    expect(doc.distribution).toEqual([
      expect.objectContaining({ name: 'open.h5', sha256: sha256(Buffer.from('open')), contentSize: '4 B' }),
    ]);
    const crate = await rest(t.url, 'GET', `/datasets/${publicDs}/export/ro-crate`);
    expect(crate.status).toBe(200);
    expect(crateErrors(crate.body)).toEqual([]);
    const graph = (crate.body as { '@graph': Record<string, unknown>[] })['@graph'];
    const root = graph.find((e) => e['@id'] === `${BASE}/datasets/${publicDs}`);
    expect(root).toMatchObject({ '@type': 'Dataset', name: 'open crystals', license: { '@id': '#license' } });
    expect(graph.find((e) => e['@id'] === '#license')).toMatchObject({ identifier: 'NOASSERTION' });
  });

  test('Accept picks the form on /datasets/{id}/export', async () => {
    const asCrate = await rest(t.url, 'GET', `/datasets/${publicDs}/export`, {
      headers: { accept: 'application/ld+json; profile="https://w3id.org/ro/crate"' },
    });
    expect(asCrate.status).toBe(200);
    expect(asCrate.headers.get('vary')).toMatch(/Accept/);
    expect(asCrate.body['@context']).toBe('https://w3id.org/ro/crate/1.2/context');
    const asOrg = await rest(t.url, 'GET', `/datasets/${publicDs}/export`);
    expect(asOrg.body['@context']).toBe('https://schema.org');
  });

  test('a private dataset is a 404 like a missing one, except to those who may read it', async () => {
    const missing = 'zzzzzzzzzzzzzzzzzzzzzzzzz0';
    const shape = (r: { status: number; body: unknown }, id: string) =>
      `${r.status} ${JSON.stringify(r.body)
        .split(id)
        .join('<id>')
        .replace(/"request_id":"[^"]*"/, '')}`;
    for (const key of [undefined, stranger.key]) {
      const hidden = await rest(t.url, 'GET', `/datasets/${privateDs}/export/schema-org`, { key });
      const never = await rest(t.url, 'GET', `/datasets/${missing}/export/schema-org`, { key });
      expect(hidden.status).toBe(404);
      expect(shape(hidden, privateDs)).toBe(shape(never, missing));
    }
    const own = await rest(t.url, 'GET', `/datasets/${privateDs}/export/ro-crate`, { key: owner.key });
    expect(own.status).toBe(200);
    expect(crateErrors(own.body)).toEqual([]);
    expect((await rest(t.url, 'GET', `/datasets/${publicDs}/export/bibtex`)).status).toBe(422);
  });

  test("a publication's RO-Crate passes the ro-crate validator too", async () => {
    expect(crateErrors((await get(`/publications/${v1}/export/ro-crate`)).text)).toEqual([]);
  });
});
