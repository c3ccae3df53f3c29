import fs from 'node:fs';
import path from 'node:path';
import { startTestApp, type TestApp } from '../support/app';
import { webAppDir } from '../../src/core/http/web-app';
import { initialJs, INITIAL_JS_BUDGET_BYTES } from '../../scripts/lib/web-weight';

/** The built web app is served at `/` without shadowing the service's own paths. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

test('npm run build has built the web app (jest runs after the build: pretest)', () => {
  expect(fs.existsSync(path.join(webAppDir(), 'index.html'))).toBe(true);
});

test('initial JavaScript stays within the page-weight budget (300 KB gzipped)', () => {
  const { files, gzipBytes } = initialJs();
  expect(files.length).toBeGreaterThan(0);
  expect(gzipBytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
  // the graph drawing is loaded on demand, not with the first page
  const first = files.map((f) => fs.readFileSync(path.join(webAppDir(), f), 'utf8')).join('\n');
  expect(first).not.toContain('cytoscape');
});

test('GET / and client-side routes asked for as HTML serve the page, with a strict CSP', async () => {
  for (const p of ['/', '/datasets/abc?q=x', '/projects/p/graph']) {
    const res = await fetch(`${t.url}${p}`, { headers: html });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const body = await res.text();
    expect(body).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);
    expect(body).not.toMatch(/https?:\/\//);
  }
  const plain = await fetch(`${t.url}/`);
  expect(plain.status).toBe(200);
});

test('assets are served with long caching; a missing asset is a 404, not the page', async () => {
  const page = await (await fetch(`${t.url}/`, { headers: html })).text();
  const src = /src="(\/assets\/[^"]+\.js)"/.exec(page)![1];
  const asset = await fetch(`${t.url}${src}`);
  expect(asset.status).toBe(200);
  expect(asset.headers.get('content-type')).toMatch(/javascript/);
  expect(asset.headers.get('cache-control')).toMatch(/immutable/);
  const missing = await fetch(`${t.url}/assets/nope.js`, { headers: html });
  expect(missing.status).toBe(404);
});

test('the service paths are not shadowed: /graphql, /api/v2, /health, /metrics, unknown JSON paths', async () => {
  const explorer = await fetch(`${t.url}/graphql`, { headers: html });
  expect(await explorer.text()).toContain('Catalog GraphQL explorer');
  const api = await fetch(`${t.url}/api/v2/no-such-route`, { headers: html });
  expect(api.status).toBe(401);
  expect(api.headers.get('content-type')).toMatch(/json/);
  const live = await fetch(`${t.url}/health/live`, { headers: html });
  expect(live.headers.get('content-type')).toMatch(/json/);
  const healthOther = await fetch(`${t.url}/health/nope`, { headers: html });
  expect(healthOther.status).toBe(404);
  const metrics = await fetch(`${t.url}/metrics`, { headers: html });
  expect(metrics.headers.get('content-type')).not.toMatch(/html/);
  const json = await fetch(`${t.url}/no-such-thing`);
  expect(json.status).toBe(404);
  expect(json.headers.get('content-type')).toMatch(/json/);
  const post = await fetch(`${t.url}/datasets`, { method: 'POST', headers: html });
  expect(post.status).toBe(404);
});
