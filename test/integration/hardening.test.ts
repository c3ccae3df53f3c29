import http from 'node:http';
import { startTestApp, type TestApp } from '../support/app';
import { makeUser, type TestUser } from '../support/factories';
import { gql, rest } from '../support/http';
import { newDataset } from '../support/catalog';

/**
 * The reproductions of the hardening issue: bad text, malformed bodies, wrong methods, oversized
 * or unpaged GraphQL documents each get a 4xx naming the problem, with one error vocabulary.
 */
let t: TestApp;
let alice: TestUser;
let ds: string;

beforeAll(async () => {
  t = await startTestApp();
  alice = await makeUser(t.app);
  ds = await newDataset(t.url, alice.key);
});
afterAll(() => t.close());

const raw = (path: string, init: RequestInit & { key?: string | null } = {}) => {
  const headers = new Headers(init.headers);
  const key = init.key === undefined ? alice.key : init.key;
  if (key) headers.set('authorization', `Bearer ${key}`);
  return fetch(`${t.url}${path}`, { ...init, headers });
};

describe('NUL characters, bad percent-encoding and deep JSON are 422 naming the field', () => {
  test.each([
    ['path parameter', () => raw(`/api/v2/datasets/a%00b`), 'path'],
    ['query parameter', () => raw(`/api/v2/datasets?keyword=a%00b`), 'query.keyword'],
    [
      'JSON string',
      () => rest(t.url, 'POST', '/datasets', { key: alice.key, body: { dataset_name: 'a\u0000b' } }),
      'dataset_name',
    ],
    [
      'keyword',
      () =>
        rest(t.url, 'POST', `/datasets/${ds}/keywords`, { key: alice.key, query: { keyword: 'x\u0000' } }),
      'query.keyword',
    ],
    [
      'metadata value',
      () =>
        rest(t.url, 'POST', `/resources/${ds}/metadata`, { key: alice.key, body: { a: { b: 'a\u0000b' } } }),
      'a.b',
    ],
    ['invalid percent-encoding', () => raw(`/api/v2/datasets/%FF`), 'path'],
  ])('%s', async (_name, call, field) => {
    const res = await call();
    const body = res instanceof Response ? ((await res.json()) as Record<string, any>) : res.body;
    expect(res.status).toBe(422);
    expect(body.code).toBe('BAD_USER_INPUT');
    expect(body.fields[0].field).toBe(field);
  });

  test('metadata nested past the documented depth', async () => {
    // built as text: JSON.stringify itself overflows the stack at this depth
    const deep = `${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}`;
    const res = await raw(`/api/v2/resources/${ds}/metadata`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: deep,
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toMatch(
      /nested too deeply \(at most 100 levels\)/,
    );
    let ok: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 98; i++) ok = { a: ok };
    const fine = await rest(t.url, 'POST', `/resources/${ds}/metadata`, {
      key: alice.key,
      body: ok,
      query: { overwrite: 'True' },
    });
    expect(fine.status).toBe(200);
  });

  test('GraphQL: NUL in a literal or a variable, deep variables', async () => {
    const literal = await gql(
      t.url,
      alice.key,
      `mutation { createDataset(input: {datasetName: "a\\u0000b"}) { uniqueId } }`,
    );
    // a request error: 200 for a client of application/json (gql sends */*), 400 for one of
    // application/graphql-response+json (graphql-over-http.test.ts)
    expect(literal.status).toBe(200);
    expect(literal.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(literal.errors?.[0].extensions?.fields?.[0].field).toBe('datasetName');
    const variable = await gql(
      t.url,
      alice.key,
      `mutation($n: String!) { createDataset(input: {datasetName: $n}) { uniqueId } }`,
      {
        n: 'x\u0000',
      },
    );
    expect(variable.status).toBe(200);
    expect(variable.errors?.[0].extensions?.fields?.[0].field).toBe('variables.n');
  });
});

describe('error conventions', () => {
  test('malformed JSON is 422, a text/plain body 415, a wrong method 405 with Allow', async () => {
    const malformed = await raw('/api/v2/instruments', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"instrument_name": ',
    });
    expect(malformed.status).toBe(422);
    expect(await malformed.json()).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ field: 'body' }] });

    const plain = await raw('/api/v2/instruments', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"instrument_name": "x"}',
    });
    expect(plain.status).toBe(415);
    expect(((await plain.json()) as { code: string }).code).toBe('UNSUPPORTED_MEDIA_TYPE');

    const wrong = await raw(`/api/v2/datasets/${ds}`, { method: 'PUT' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD, PATCH');
    expect(((await wrong.json()) as { code: string }).code).toBe('METHOD_NOT_ALLOWED');
    const health = await raw('/health/live', { method: 'POST', key: null });
    expect(health.status).toBe(405);

    const missing = await raw('/api/v2/no-such-route');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('NOT_FOUND');
  });

  test('REST and GraphQL name a validation error the same way', async () => {
    const r = await rest(t.url, 'POST', '/datasets', { key: alice.key, body: { dataset_name: 5 } });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('BAD_USER_INPUT');
    const g = await gql(
      t.url,
      alice.key,
      `mutation { createDataset(input: {datasetName: "x", uniqueId: "nope"}) { uniqueId } }`,
    );
    expect(g.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('GraphQL work is bounded before authorization', () => {
  test('anonymous documents: small ones introspect, large ones are refused unparsed', async () => {
    const intro = await gql(t.url, null, '{ __schema { queryType { name } } }');
    expect(intro.errors).toBeUndefined();
    const big = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ ${'__typename '.repeat(800_000)} }` }),
    });
    expect(big.status).toBe(413);
    const many = await gql(t.url, null, `{ ${'__typename '.repeat(600)} }`);
    expect(many.status).toBe(413);
    expect(many.errors?.[0].extensions?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(many.errors?.[0].message).toMatch(/more than 500 tokens/);
    const data = await gql(t.url, null, '{ datasets { totalCount } }');
    expect(data.status).toBe(401);
  });

  test('documents over the token limit are refused for authenticated callers too', async () => {
    const res = await gql(t.url, alice.key, `{ ${'__typename '.repeat(3500)} }`);
    expect(res.status).toBe(413);
    expect(res.errors?.[0].message).toMatch(/more than 3000 tokens/);
  });

  test('the complexity limit counts default page sizes and unpaged lists', async () => {
    const unpaged = `{ projects { nodes { datasets { nodes { files { nodes { uniqueId } } } } } } }`;
    const res = await gql(t.url, alice.key, unpaged);
    expect(res.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
    const paged = `{ projects(first: 100) { nodes { datasets(first: 100) { nodes { files(first: 100) { nodes { uniqueId } } } } } } }`;
    expect((await gql(t.url, alice.key, paged)).errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
    const nested = `{ datasets(first: 1000) { nodes { children { children { uniqueId } } } } }`;
    expect((await gql(t.url, alice.key, nested)).errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
    const fine = `{ datasets { nodes { uniqueId children { uniqueId } parents { uniqueId } samples { uniqueId } links { uniqueId } } } }`;
    expect((await gql(t.url, alice.key, fine)).errors).toBeUndefined();
  });

  test('an operation measured within the limits once is measured again with other variables', async () => {
    const q = `query($n: Int, $m: Int) { projects(first: $n) { nodes { datasets(first: $m) { nodes { files(first: $m) { nodes { uniqueId } } } } } } }`;
    for (let i = 0; i < 2; i++) {
      expect((await gql(t.url, alice.key, q, { n: 2, m: 2 })).errors).toBeUndefined();
      const big = await gql(t.url, alice.key, q, { n: 100, m: 100 });
      expect(big.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
    }
  });
});

describe('multipart bodies on JSON routes', () => {
  const form = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    return f;
  };

  test('POST and PATCH with a multipart body are 415 and change nothing', async () => {
    const name = `form-${ds}`;
    const created = await raw('/api/v2/instruments', {
      method: 'POST',
      body: form({ instrument_name: name }),
    });
    expect(created.status).toBe(415);
    expect(await created.json()).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      detail: expect.stringMatching(/does not take multipart\/form-data.*application\/json/),
    });
    const found = await rest(t.url, 'GET', '/instruments', {
      key: alice.key,
      query: { instrument_name: name },
    });
    expect(JSON.stringify(found.body)).not.toContain(name);

    const patched = await raw(`/api/v2/datasets/${ds}`, {
      method: 'PATCH',
      body: form({ dataset_name: 'renamed by a form' }),
    });
    expect(patched.status).toBe(415);
    const after = await rest(t.url, 'GET', `/datasets/${ds}`, { key: alice.key });
    expect(after.body.dataset_name).not.toBe('renamed by a form');
  });

  test('the file route still takes a multipart upload', async () => {
    const f = new FormData();
    f.append('file', new Blob(['hello form']), 'form.txt');
    const res = await raw(`/api/v2/datasets/${ds}/files`, { method: 'POST', body: f });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { filename: string }).filename).toBe('form.txt');
  });
});

describe('explicit null for fields that cannot be null', () => {
  let admin: TestUser;
  beforeAll(async () => {
    admin = await makeUser(t.app, { admin: true });
  });

  test('updateInstrument(public: null) and the REST equivalent are 4xx and write nothing', async () => {
    const made = await gql(
      t.url,
      admin.key,
      `mutation($n: String!) { createInstrument(input: {instrumentName: $n, public: true}) { uniqueId } }`,
      { n: `null-${ds}` },
    );
    expect(made.errors).toBeUndefined();
    const id = (made.data as { createInstrument: { uniqueId: string } }).createInstrument.uniqueId;
    for (const input of ['{public: null}', '{instrumentName: null}', '{instrumentId: null}']) {
      const res = await gql(
        t.url,
        admin.key,
        `mutation { updateInstrument(id: "${id}", input: ${input}) { uniqueId } }`,
      );
      expect(res.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
      expect(res.errors?.[0].message).toMatch(/must (not be null|be true or false)/);
    }
    const r = await rest(t.url, 'PATCH', `/instruments/${id}`, { key: admin.key, body: { public: null } });
    expect(r.status).toBe(422);
    expect(r.body.fields[0].field).toBe('public');
    const after = await rest(t.url, 'GET', `/instruments/${id}`, { key: admin.key });
    expect(after.body.public).toBe(true);
    expect(after.body.instrument_name).toBe(`null-${ds}`);
  });

  test('updateDataset(public: null) is 4xx and writes nothing', async () => {
    const res = await gql(
      t.url,
      alice.key,
      `mutation { updateDataset(id: "${ds}", input: {public: null}) { public } }`,
    );
    expect(res.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(res.errors?.[0].extensions?.fields?.[0].field).toBe('public');
    const after = await rest(t.url, 'GET', `/datasets/${ds}`, { key: alice.key });
    expect(after.body.public).toBe(false);
  });
});

describe('oversized or unwanted bodies are refused before they are read', () => {
  /** Sends the headers and 1 KiB of a body declared `declared` bytes long, then waits for an answer. */
  const partial = (path: string, headers: Record<string, string>, declared: number) =>
    new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
      const req = http.request(`${t.url}${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(declared) },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body });
        });
      });
      req.on('error', reject);
      req.write(Buffer.alloc(1024, ' '));
      // the rest of the body is never sent: the server must answer from the headers alone
    });

  test.each([
    ['anonymous GraphQL', '/graphql', {}, 413],
    ['signed GraphQL over MAX_JSON_BODY_BYTES', '/graphql', { key: true }, 413],
    ['signed REST JSON over MAX_JSON_BODY_BYTES', '/api/v2/datasets', { key: true }, 413],
    ['anonymous REST JSON', '/api/v2/datasets', {}, 401],
  ] as const)('%s', async (_name, path, opts, status) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if ('key' in opts) headers.authorization = `Bearer ${alice.key}`;
    const res = await partial(path, headers, 64 * 1024 * 1024);
    expect(res.status).toBe(status);
    expect(res.connection).toBe('close');
    expect(res.body).toMatch(/PAYLOAD_TOO_LARGE|UNAUTHENTICATED/);
  });
});
