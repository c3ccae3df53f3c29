import http from 'node:http';
import { auditServer, type AuditResult } from 'graphql-http';
import { startTestApp, type TestApp } from '../support/app';
import { makeUser, type TestUser } from '../support/factories';

/**
 * GraphQL over HTTP as an outside client sees it: graphql-http's audit of the spec (every MUST
 * and SHOULD, anonymous and with a key), status codes negotiated by `Accept` (request errors are
 * 200 under application/json, 400 under application/graphql-response+json), and the
 * `WWW-Authenticate` challenge of every 401.
 */
let t: TestApp;
let alice: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  alice = await makeUser(t.app);
}, 120_000);
afterAll(() => t.close());

const JSON_TYPE = 'application/json';
const GRAPHQL_TYPE = 'application/graphql-response+json';

/** The audits that are not `ok` among the MUSTs and SHOULDs, with the reason. */
const failed = (results: AuditResult[]) =>
  results
    .filter((r) => r.status !== 'ok' && /^(MUST|SHOULD) /.test(r.name))
    .map((r) => `${r.id} ${r.name}: ${'reason' in r ? r.reason : ''}`);

test('graphql-http audit, anonymous: every MUST and SHOULD passes', async () => {
  const results = await auditServer({ url: `${t.url}/graphql` });
  expect(results.length).toBeGreaterThan(40);
  expect(failed(results)).toEqual([]);
});

test('graphql-http audit, with an API key: every MUST and SHOULD passes', async () => {
  const withKey = (input: string, init: RequestInit = {}) =>
    fetch(input, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${alice.key}` },
    });
  const results = await auditServer({ url: `${t.url}/graphql`, fetchFn: withKey });
  expect(failed(results)).toEqual([]);
});

interface Answer {
  status: number;
  type: string;
  body: { data?: unknown; errors?: { extensions?: { code?: string } }[] };
  challenge: string | null;
}

/** A POST to /graphql with this Accept (none at all when null: fetch would send `*\/*`). */
function post(body: unknown, accept: string | null, headers: Record<string, string> = {}): Promise<Answer> {
  const { port } = new URL(t.url);
  const all: Record<string, string> = { 'content-type': 'application/json', ...headers };
  if (accept !== null) all.accept = accept;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/graphql', method: 'POST', headers: all },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            type: (res.headers['content-type'] ?? '').split(';')[0],
            body: JSON.parse(text) as Answer['body'],
            challenge: res.headers['www-authenticate'] ?? null,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const REQUEST_ERRORS: [string, Record<string, unknown>, string][] = [
  ['a document that does not parse', { query: '{ me {' }, 'GRAPHQL_PARSE_FAILED'],
  ['a document that does not validate', { query: '{ noSuchField }' }, 'GRAPHQL_VALIDATION_FAILED'],
  [
    'variables that do not coerce',
    { query: 'query($id: ID!) { dataset(id: $id) { uniqueId } }', variables: { id: null } },
    'BAD_USER_INPUT',
  ],
  [
    'a NUL character in a literal (refused before parsing)',
    { query: 'mutation { createDataset(input: {datasetName: "a\\u0000b"}) { uniqueId } }' },
    'BAD_USER_INPUT',
  ],
];

describe.each(REQUEST_ERRORS)('%s', (_name, body, code) => {
  const key = () => ({ authorization: `Bearer ${alice.key}` });

  test.each([
    [JSON_TYPE, 200, JSON_TYPE],
    ['*/*', 200, JSON_TYPE],
    [null, 200, JSON_TYPE],
    [GRAPHQL_TYPE, 400, GRAPHQL_TYPE],
    [`${GRAPHQL_TYPE}, ${JSON_TYPE};q=0.9`, 400, GRAPHQL_TYPE],
    [`${JSON_TYPE}, ${GRAPHQL_TYPE};q=0.9`, 200, JSON_TYPE],
  ])('Accept: %s -> %s as %s, errors and no data', async (accept, status, type) => {
    const res = await post(body, accept, key());
    expect({ status: res.status, type: res.type }).toEqual({ status, type });
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.[0].extensions?.code).toBe(code);
  });
});

test('a persisted query whose hash does not match stays a 400 whatever the client accepts', async () => {
  const body = {
    query: '{ __typename }',
    extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } },
  };
  for (const accept of [JSON_TYPE, GRAPHQL_TYPE]) {
    const res = await post(body, accept, { authorization: `Bearer ${alice.key}` });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
  }
});

describe('every 401 carries a WWW-Authenticate challenge', () => {
  const ME = { query: '{ me { user { uniqueId } } }' };

  test.each([JSON_TYPE, GRAPHQL_TYPE])('no key (Accept: %s): Bearer realm, no error code', async (accept) => {
    const res = await post(ME, accept);
    expect(res.status).toBe(401);
    expect(res.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(res.challenge).toBe('Bearer realm="catalog"');
  });

  test.each([
    ['an unknown key', 'Bearer cat_not-a-key-at-all-0123456789'],
    ['a malformed header', 'Basic dXNlcjpwYXNz'],
  ])('%s: error="invalid_token"', async (_name, authorization) => {
    const res = await post(ME, JSON_TYPE, { authorization });
    expect(res.status).toBe(401);
    expect(res.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(res.challenge).toBe('Bearer realm="catalog", error="invalid_token"');
  });

  test('an upload without a key', async () => {
    const form = new FormData();
    form.append(
      'operations',
      JSON.stringify({ query: 'mutation($f: Upload!) { x(f: $f) }', variables: { f: null } }),
    );
    form.append('map', JSON.stringify({ 0: ['variables.f'] }));
    form.append('0', new Blob(['x']), 'x.txt');
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      body: form,
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="catalog"');
  });
});
