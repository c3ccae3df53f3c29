import { startTestApp, type TestApp } from '../support/app';
import { makeUser, type TestUser } from '../support/factories';
import { newDataset } from '../support/catalog';
import { rest } from '../support/http';
import { browserAvailability, launchBrowser, servePage } from '../support/browser';

/**
 * CORS: a page on an allowed origin queries the API from a real (headless) browser; a page on
 * any other origin is refused by the browser. Preflights and headers are also checked directly.
 */
const PAGE = '<!doctype html><title>frontend</title><p>frontend</p>';

const GRAPH = `query Graph($id: ID!) {
  entityGraph(id: $id) { nodes { id type } edges { source target kind } }
}`;

let t: TestApp;
let owner: TestUser;
let parent: string;
let child: string;
let allowedPage: { origin: string; close(): Promise<void> };
let otherPage: { origin: string; close(): Promise<void> };

beforeAll(async () => {
  allowedPage = await servePage(PAGE);
  otherPage = await servePage(PAGE);
  t = await startTestApp({ CORS_ORIGINS: `https://app.example.org, ${allowedPage.origin}` });
  owner = await makeUser(t.app);
  parent = await newDataset(t.url, owner.key, { dataset_name: 'raw scan' });
  child = await newDataset(t.url, owner.key, { dataset_name: 'processed scan' });
  const link = await rest(t.url, 'POST', '/resources/links', {
    key: owner.key,
    body: { parent_mfid: parent, child_mfid: child },
  });
  expect(link.status).toBe(201);
});

afterAll(async () => {
  await t?.close();
  await allowedPage?.close();
  await otherPage?.close();
});

async function preflight(path: string, origin: string, headers = 'authorization, content-type') {
  return fetch(`${t.url}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': headers,
    },
  });
}

test('preflights of an allowed origin are answered for /graphql and /api/v2', async () => {
  for (const path of ['/graphql', '/api/v2/datasets', `/api/v2/datasets/${parent}`]) {
    const res = await preflight(path, allowedPage.origin);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(allowedPage.origin);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/Origin/);
  }
});

test('other origins get no CORS headers: preflight 403, ordinary requests unmarked', async () => {
  const res = await preflight('/graphql', otherPage.origin);
  expect(res.status).toBe(403);
  expect(res.headers.get('access-control-allow-origin')).toBeNull();
  const get = await rest(t.url, 'GET', `/datasets/${parent}`, {
    key: owner.key,
    headers: { origin: otherPage.origin },
  });
  expect(get.status).toBe(200);
  expect(get.headers.get('access-control-allow-origin')).toBeNull();
  // a near miss is not the origin: scheme, host and port must all match
  const near = await preflight('/graphql', allowedPage.origin.replace('127.0.0.1', 'localhost'));
  expect(near.status).toBe(403);
});

test('ordinary responses to an allowed origin expose x-request-id', async () => {
  const get = await rest(t.url, 'GET', `/datasets/${parent}`, {
    key: owner.key,
    headers: { origin: allowedPage.origin },
  });
  expect(get.headers.get('access-control-allow-origin')).toBe(allowedPage.origin);
  expect(get.headers.get('access-control-expose-headers')).toContain('x-request-id');
});

test('CORS_ORIGINS must list exact origins', async () => {
  await expect(startTestApp({ CORS_ORIGINS: 'https://app.example.org/path' })).rejects.toThrow(
    /CORS_ORIGINS/,
  );
  await expect(startTestApp({ CORS_ORIGINS: '*' })).rejects.toThrow(/CORS_ORIGINS/);
});

const { available, reason } = browserAvailability();
if (!available && process.env.CI) {
  test('a headless browser is available for the cross-origin test', () => {
    throw new Error(`CI must run the browser test: ${reason}`);
  });
}

(available ? test : test.skip)(
  `a browser page on an allowed origin queries the entity graph; another origin is refused${available ? '' : ` (skipped: ${reason})`}`,
  async () => {
    const browser = await launchBrowser();
    try {
      const call = async (pageOrigin: string) => {
        const page = await browser.context.newPage();
        await page.goto(`${pageOrigin}/`);
        return page.evaluate(
          async ({ api, key, query, id, dataset }) => {
            try {
              const res = await fetch(`${api}/graphql`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
                body: JSON.stringify({ query, variables: { id } }),
              });
              const rest = await fetch(`${api}/api/v2/datasets/${dataset}`, {
                headers: { authorization: `Bearer ${key}` },
              });
              return {
                ok: true as const,
                status: res.status,
                body: await res.json(),
                requestId: res.headers.get('x-request-id'),
                restStatus: rest.status,
                restName: ((await rest.json()) as { dataset_name?: string }).dataset_name,
              };
            } catch (err) {
              return { ok: false as const, error: String(err) };
            }
          },
          { api: t.url, key: owner.key, query: GRAPH, id: parent, dataset: child },
        );
      };

      const allowed = await call(allowedPage.origin);
      expect(allowed).toMatchObject({ ok: true, status: 200, restStatus: 200, restName: 'processed scan' });
      if (!allowed.ok) return;
      expect(allowed.requestId).toMatch(/^[\w.:-]+$/);
      const graph = (allowed.body as { data: { entityGraph: { nodes: { id: string }[]; edges: unknown[] } } })
        .data.entityGraph;
      expect(graph.nodes.map((n) => n.id).sort()).toEqual([parent, child].sort());
      expect(graph.edges).toEqual([{ source: parent, target: child, kind: 'dataset_dataset' }]);

      const refused = await call(otherPage.origin);
      expect(refused).toEqual({ ok: false, error: expect.stringMatching(/Failed to fetch/) as unknown });
    } finally {
      await browser.close();
    }
  },
);
