import { randomBytes } from 'node:crypto';
import type { TestApp } from '../support/app';
import { rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';
import { listKeys, startAppOn } from '../support/storage';
import { gqlUpload, makeDataset, sha256 } from '../support/files';

/**
 * The GraphQL multipart request protocol as the gateway reads it (src/core/graphql/multipart.ts):
 * one file used once is streamed to the store, several files (or one used twice) are spooled and
 * may be read in any order; malformed requests are clear 400s/413s that store nothing.
 */

type Part = { name: string; value: string } | { name: string; filename: string; data: Buffer };

const BOUNDARY = 'catalog-multipart-test';

function body(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const head =
      'data' in p
        ? `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`
        : `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n`;
    chunks.push(Buffer.from(head), 'data' in p ? p.data : Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const ADD = (alias: string, variable: string) =>
  `${alias}: addDatasetFile(dataset: $d, file: $${variable}) { created file { filename size sha256 } }`;

describe('GraphQL multipart requests', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  beforeAll(async () => {
    t = await startAppOn('filesystem', { MAX_UPLOAD_BYTES: String(1024 * 1024), MAX_UPLOAD_FILES: '3' });
    owner = await makeUser(t.app);
    stranger = await makeUser(t.app);
  });
  afterAll(() => t.close());

  const send = async (parts: Part[] | Buffer, key = owner.key, contentType?: string) => {
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'apollo-require-preflight': 'true',
        'content-type': contentType ?? `multipart/form-data; boundary=${BOUNDARY}`,
      },
      body: Buffer.isBuffer(parts) ? parts : body(parts),
    });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) };
  };
  const ops = (query: string, variables: Record<string, unknown>) => ({
    name: 'operations',
    value: JSON.stringify({ query, variables }),
  });
  /** two additions to `ds`: `a` of upload variable `first`, then `b` of `second` */
  const twoAdds = (ds: string, first: string, second: string) =>
    ops(`mutation ($d: ID!, $x: Upload!, $y: Upload!) { ${ADD('a', first)} ${ADD('b', second)} }`, {
      d: ds,
      x: null,
      y: null,
    });
  const files = async (ds: string) =>
    (await rest(t.url, 'GET', `/datasets/${ds}/files`, { key: owner.key })).body as { filename: string }[];

  test('two files, read in the opposite order of their parts, and one file used twice', async () => {
    const ds = await makeDataset(t, owner);
    const first = randomBytes(300_000);
    const second = randomBytes(200_001);
    // the mutations run in order: `a` reads the second part, then `b` the first
    const r = await send([
      twoAdds(ds, 'y', 'x'),
      { name: 'map', value: JSON.stringify({ one: ['variables.x'], two: ['variables.y'] }) },
      { name: 'one', filename: 'first.bin', data: first },
      { name: 'two', filename: 'second.bin', data: second },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      a: { created: true, file: { filename: 'second.bin', size: second.length, sha256: sha256(second) } },
      b: { created: true, file: { filename: 'first.bin', size: first.length, sha256: sha256(first) } },
    });

    const twice = randomBytes(50_000);
    const again = await send([
      twoAdds(ds, 'x', 'y'),
      { name: 'map', value: JSON.stringify({ only: ['variables.x', 'variables.y'] }) },
      { name: 'only', filename: 'twice.bin', data: twice },
    ]);
    expect(again.body.data).toEqual({
      a: { created: true, file: { filename: 'twice.bin', size: twice.length, sha256: sha256(twice) } },
      b: { created: false, file: { filename: 'twice.bin', size: twice.length, sha256: sha256(twice) } },
    });
    expect((await files(ds)).map((f) => f.filename).sort()).toEqual(['first.bin', 'second.bin', 'twice.bin']);
    expect(await listKeys(t.app.services.file.store, '.')).toEqual([]);
  });

  test('a streamed file nobody reads is read away: the answer comes and the connection serves on', async () => {
    const ds = await makeDataset(t, owner);
    // the stranger may not add files here: the resolver refuses before reading the file
    const refused = await gqlUpload(t.url, stranger.key, ds, 'big.bin', randomBytes(900_000));
    expect(refused.status).toBe(200);
    expect(refused.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const ok = await gqlUpload(t.url, owner.key, ds, 'small.bin', randomBytes(1000));
    expect(ok.body.data.addDatasetFile.created).toBe(true);
    expect((await files(ds)).map((f) => f.filename)).toEqual(['small.bin']);
  });

  test('malformed requests are 400 (413 over a limit), with a clear message, and store nothing', async () => {
    const ds = await makeDataset(t, owner);
    const query = `mutation ($d: ID!, $f: Upload!) { ${ADD('a', 'f')} }`;
    const good = ops(query, { d: ds, f: null });
    const file = { name: '0', filename: 'x.bin', data: Buffer.from('x') };
    const map = (m: unknown) => ({ name: 'map', value: JSON.stringify(m) });
    const cases: [string, Part[] | Buffer, number, RegExp, string?][] = [
      ['no boundary', Buffer.from('whatever'), 400, /boundary/, 'multipart/form-data'],
      [
        'operations not JSON',
        [{ name: 'operations', value: '{' }, map({ 0: ['variables.f'] }), file],
        400,
        /Invalid JSON in the 'operations'/,
      ],
      [
        'operations not an object',
        [{ name: 'operations', value: '3' }, map({}), file],
        400,
        /Invalid type for the 'operations'/,
      ],
      ['map first', [map({ 0: ['variables.f'] }), good, file], 400, /'map' should follow 'operations'/],
      ['map not JSON', [good, { name: 'map', value: '[' }, file], 400, /Invalid JSON in the 'map'/],
      ['map an array', [good, map([['variables.f']]), file], 400, /Invalid type for the 'map'/],
      ['map entry not an array', [good, map({ 0: 'variables.f' }), file], 400, /entry '0'/],
      ['map path to no null', [good, map({ 0: ['variables.d'] }), file], 400, /Invalid object path/],
      ['map path to nothing', [good, map({ 0: ['variables.nope.f'] }), file], 400, /Invalid object path/],
      [
        'map path through __proto__',
        [good, map({ 0: ['__proto__.polluted'] }), file],
        400,
        /Invalid object path/,
      ],
      ['file before map', [good, file, map({ 0: ['variables.f'] })], 400, /files should follow 'map'/],
      ['no operations', [], 400, /Missing multipart field 'operations'/],
      ['no map', [good], 400, /Missing multipart field 'map'/],
      [
        'too many files in the map',
        [good, map({ 0: ['variables.f'], 1: [], 2: [], 3: [] }), file],
        413,
        /At most 3 files/,
      ],
      [
        'a field over 1 MB',
        [{ name: 'operations', value: 'x'.repeat(1_000_001) }],
        413,
        /larger than 1000000 bytes/,
      ],
    ];
    for (const [name, parts, status, message, contentType] of cases) {
      const r = await send(parts, owner.key, contentType);
      expect([name, r.status]).toEqual([name, status]);
      expect([name, r.body.errors?.[0]?.message]).toEqual([name, expect.stringMatching(message)]);
      expect(r.text).not.toMatch(/ at .*\.(ts|js):\d+/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // a mapped file that never comes, and one over the size limit: the mutation fails, nothing is kept
    const missing = await send([good, map({ 0: ['variables.f'] })]);
    expect(missing.body.errors[0]).toMatchObject({ message: 'File missing in the request' });
    const big = await send([
      good,
      map({ 0: ['variables.f'] }),
      { ...file, data: randomBytes(1024 * 1024 + 1) },
    ]);
    expect(big.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    // a part the map does not name is skipped
    const extra = await send([good, map({ 0: ['variables.f'] }), { ...file, name: 'stray' }, file]);
    expect(extra.body.data.a).toMatchObject({ created: true, file: { filename: 'x.bin', size: 1 } });
    expect((await files(ds)).map((f) => f.filename)).toEqual(['x.bin']);
    expect(await listKeys(t.app.services.file.store, '.')).toEqual([]);
  });
});
