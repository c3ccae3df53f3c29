import { startTestApp, type TestApp } from '../support/app';
import { rest } from '../support/http';
import { makePublication } from '../support/publications';
import { makeUser, type TestUser } from '../support/factories';
import { makeDataset } from '../support/files';
import { expectSchemaValid } from '../support/xml-schemas';

// /sitemap.xml: a sitemap index of /sitemaps/{n}.xml files (SITEMAP_FILE_URLS each, 50,000 at
// most): the home page, then the landing pages of published publications in id order
// (docs/publications.md "Harvesting"). Validated against the sitemaps.org schemas.

const BASE = 'https://catalog.example.org';
let t: TestApp;
let owner: TestUser;

const locs = (xml: string): string[] => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);

async function get(path: string): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(`${t.url}${path}`);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

beforeAll(async () => {
  t = await startTestApp({ PUBLIC_BASE_URL: BASE, SITEMAP_FILE_URLS: '4' });
  owner = await makeUser(t.app);
});
afterAll(() => t.close());

async function publication(publish: boolean): Promise<string> {
  const ds = await makeDataset(t, owner, 'sitemap');
  return makePublication(
    t,
    owner.key,
    {
      dataset_ids: [ds],
      title: 'Sitemapped',
      description: 'A publication made for the sitemap test, with a description long enough.',
      creators: [{ name: 'Example Team' }],
      license: 'CC0-1.0',
    },
    publish,
  );
}

test('the index lists files of at most SITEMAP_FILE_URLS URLs that hold every published landing page once', async () => {
  const mine = [
    await publication(true),
    await publication(true),
    await publication(true),
    await publication(true),
  ];
  const draft = await publication(false);
  const gone = await publication(true);
  await rest(t.url, 'POST', `/publications/${gone}/withdraw`, {
    key: owner.key,
    body: { reason: 'wrong data' },
  });
  for (let i = 0; i < 3; i++) mine.push(await publication(true));

  const index = await get('/sitemap.xml');
  expect(index.status).toBe(200);
  expect(index.type).toMatch(/^text\/xml/);
  const files = locs(index.text);
  expect(files.length).toBeGreaterThanOrEqual(2);
  files.forEach((f, i) => expect(f).toBe(`${BASE}/sitemaps/${i + 1}.xml`));

  const bodies: string[] = [];
  for (const f of files) {
    const r = await get(f.slice(BASE.length));
    expect(r.status).toBe(200);
    bodies.push(r.text);
  }
  const urls = bodies.flatMap(locs);
  for (const b of bodies) expect(locs(b).length).toBeLessThanOrEqual(4);
  // every file but the last is full
  for (const b of bodies.slice(0, -1)) expect(locs(b)).toHaveLength(4);
  expect(urls[0]).toBe(`${BASE}/`);
  expect(new Set(urls).size).toBe(urls.length);
  // exactly the published ones (of every test file of this worker's database), in id order
  const [rows] = [
    await t.app.orm.em
      .fork()
      .getConnection()
      .execute<{ unique_id: string }[]>(
        `select unique_id from publication where state = 'published' order by unique_id`,
      ),
  ];
  expect(urls.slice(1)).toEqual(rows.map((r) => `${BASE}/publications/${r.unique_id}`));
  for (const id of mine) expect(urls).toContain(`${BASE}/publications/${id}`);
  expect(urls).not.toContain(`${BASE}/publications/${draft}`);
  expect(urls).not.toContain(`${BASE}/publications/${gone}`);
  expect(bodies.join('')).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z<\/lastmod>/);

  expectSchemaValid('siteindex.xsd', [index.text]);
  expectSchemaValid('sitemap.xsd', bodies);
  // and the schemas refuse what is not a sitemap
  expect(() =>
    expectSchemaValid('sitemap.xsd', [
      bodies[0].replace('<loc>', '<location>').replace('</loc>', '</location>'),
    ]),
  ).toThrow(/is not valid/);
});

test('a file past the last, file 0 and names that are not files are 404', async () => {
  const files = locs((await get('/sitemap.xml')).text).length;
  for (const path of [
    `/sitemaps/${files + 1}.xml`,
    '/sitemaps/0.xml',
    '/sitemaps/abc.xml',
    '/sitemaps/1',
    '/sitemaps/01.xml',
  ])
    expect([path, (await get(path)).status]).toEqual([path, 404]);
});
