import http from 'node:http';
import zlib from 'node:zlib';
import { startTestApp, type TestApp } from '../support/app';
import { makeUser, type TestUser } from '../support/factories';
import { formUpload, makeDataset } from '../support/files';

/**
 * Compression over real HTTP (node:http, which neither asks for nor undoes any encoding itself):
 * the page's assets precompressed at build and chosen by Accept-Encoding, JSON answers above
 * 1 KB compressed, and what must not be: small answers, downloads, Range requests.
 */
let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  owner = await makeUser(t.app, { username: 'zip-owner' });
});
afterAll(() => t?.close());

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${t.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

const decode = (r: Raw): Buffer =>
  r.headers['content-encoding'] === 'br'
    ? zlib.brotliDecompressSync(r.body)
    : r.headers['content-encoding'] === 'gzip'
      ? zlib.gunzipSync(r.body)
      : r.body;

const html = 'text/html,application/xhtml+xml,*/*;q=0.8';

async function entryScript(): Promise<string> {
  const page = await get('/', { accept: html });
  const m = /src="(\/assets\/[^"]+\.js)"/.exec(page.body.toString('utf8'));
  if (!m) throw new Error('no entry script in the page');
  return m[1];
}

test('assets: brotli or gzip by Accept-Encoding (q-values heeded), Vary, immutable caching, identity otherwise', async () => {
  const src = await entryScript();
  const plain = await get(src, {});
  expect(plain.status).toBe(200);
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.headers.vary).toMatch(/accept-encoding/i);

  const br = await get(src, { 'accept-encoding': 'gzip, deflate, br' });
  expect(br.headers['content-encoding']).toBe('br');
  expect(br.headers.vary).toMatch(/accept-encoding/i);
  expect(br.headers['content-type']).toMatch(/javascript/);
  expect(br.headers['cache-control']).toMatch(/immutable/);
  expect(br.body.length).toBeLessThan(plain.body.length / 2);
  expect(decode(br).equals(plain.body)).toBe(true);

  const gz = await get(src, { 'accept-encoding': 'gzip' });
  expect(gz.headers['content-encoding']).toBe('gzip');
  expect(decode(gz).equals(plain.body)).toBe(true);
  // the client prefers gzip: it gets gzip; it refuses both: identity
  expect((await get(src, { 'accept-encoding': 'br;q=0.5, gzip;q=1' })).headers['content-encoding']).toBe(
    'gzip',
  );
  expect((await get(src, { 'accept-encoding': 'identity' })).headers['content-encoding']).toBeUndefined();

  // a conditional request for the same encoding: 304
  const again = await get(src, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
  expect(again.status).toBe(304);
  // a Range request gets the plain bytes' range
  const range = await get(src, { 'accept-encoding': 'br, gzip', range: 'bytes=0-9' });
  expect(range.status).toBe(206);
  expect(range.headers['content-encoding']).toBeUndefined();
  expect(range.body.equals(plain.body.subarray(0, 10))).toBe(true);
  // a path out of the assets folder is not served, compressed or not
  expect((await get('/assets/..%2f..%2fpackage.json', { 'accept-encoding': 'br' })).status).toBe(404);
  expect((await get('/assets/nope.js', { 'accept-encoding': 'br', accept: html })).status).toBe(404);
});

test('the page itself: compressed for a browser that accepts it, with Vary', async () => {
  const plain = await get('/', { accept: html });
  const br = await get('/', { accept: html, 'accept-encoding': 'br' });
  expect(br.headers['content-encoding']).toBe('br');
  expect(br.headers.vary).toMatch(/accept-encoding/i);
  expect(br.headers['content-security-policy']).toContain("script-src 'self'");
  expect(decode(br).equals(plain.body)).toBe(true);
});

test('JSON answers: compressed from 1 KB on, small ones as they are', async () => {
  const ask = (query: string, encoding: string) =>
    get(
      '/graphql',
      {
        authorization: `Bearer ${owner.key}`,
        'content-type': 'application/json',
        'accept-encoding': encoding,
      },
      'POST',
      JSON.stringify({ query }),
    );
  const big = await ask('{ __schema { types { name description } } }', 'gzip, br');
  expect(big.status).toBe(200);
  expect(big.headers['content-encoding']).toMatch(/^(br|gzip)$/);
  expect(big.headers.vary).toMatch(/accept-encoding/i);
  const data = JSON.parse(decode(big).toString('utf8')) as { data: { __schema: { types: unknown[] } } };
  expect(data.data.__schema.types.length).toBeGreaterThan(10);
  expect(big.body.length).toBeLessThan(decode(big).length / 2);

  const small = await ask('{ __typename }', 'gzip, br');
  expect(small.headers['content-encoding']).toBeUndefined();
  const none = await ask('{ __schema { types { name description } } }', 'identity');
  expect(none.headers['content-encoding']).toBeUndefined();
  expect(JSON.parse(none.body.toString('utf8'))).toEqual(data);

  // REST pages too
  const openapi = await get('/api/v2/openapi.json', { 'accept-encoding': 'gzip' });
  if (openapi.status === 200) expect(openapi.headers['content-encoding']).toBe('gzip');
});

test('downloads are sent as stored: never compressed, whole or by Range', async () => {
  const ds = await makeDataset(t, owner);
  const data = Buffer.from(
    JSON.stringify({ rows: Array.from({ length: 500 }, (_, i) => ({ i, v: 'x'.repeat(20) })) }),
  );
  const f = (await formUpload(t.url, owner.key, ds, [{ name: 'data.json', data }])).body as { mfid: string };
  const auth = { authorization: `Bearer ${owner.key}`, 'accept-encoding': 'gzip, br' };
  const whole = await get(`/api/v2/files/${f.mfid}/download`, auth);
  expect(whole.status).toBe(200);
  expect(whole.headers['content-encoding']).toBeUndefined();
  expect(whole.body.equals(data)).toBe(true);
  const part = await get(`/api/v2/files/${f.mfid}/download`, { ...auth, range: 'bytes=10-19' });
  expect(part.status).toBe(206);
  expect(part.headers['content-encoding']).toBeUndefined();
  expect(part.body.equals(data.subarray(10, 20))).toBe(true);
});
