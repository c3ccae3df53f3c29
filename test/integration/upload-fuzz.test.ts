import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';
import { listKeys, startAppOn } from '../support/storage';
import { formUpload, makeDataset, putChunk, sha256 } from '../support/files';

/**
 * Bodies that break off, on every path that reads an upload: the REST form upload, GraphQL
 * multipart (streamed and spooled), resumable chunks, and the archive download a client walks
 * away from. Whatever arrives (cut at many points, without its closing boundary, with garbage
 * boundaries or headers, aborted or stalled mid-body, too large, with a wrong Content-Range),
 * the answer is a 4xx or a closed connection, nothing is logged as an error (a 5xx the client
 * no longer sees would be), the process serves on, and no row, object, temporary file, spool
 * file or session lease is left behind.
 */

const MAX_UPLOAD = 256 * 1024;
const B = 'fuzzb';

interface Raw {
  /** null: the connection closed without an answer */
  status: number | null;
  text: string;
}

interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  body: Buffer;
  /** Content-Length to declare (default: the body's; null: chunked) */
  declared?: number | null;
  /** after writing the body: end the request (default), or wait this long and drop the connection */
  abortAfterMs?: number;
}

/** One request written by hand, so that it can lie about its length, stop, or vanish. */
function raw(url: string, opts: RawOptions): Promise<Raw> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { ...opts.headers };
    const declared = opts.declared === undefined ? opts.body.length : opts.declared;
    if (declared !== null) headers['content-length'] = String(declared);
    const req = http.request(url, { method: opts.method ?? 'POST', headers });
    let done = false;
    const finish = (r: Raw) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    // nothing here may take long: a request the server leaves hanging fails the test
    const timer = setTimeout(() => {
      req.destroy();
      finish({ status: -1, text: 'no answer within 10 s' });
    }, 10_000);
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => finish({ status: res.statusCode ?? 0, text }));
      res.on('error', () => finish({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', () => finish({ status: null, text: '' }));
    req.on('close', () => setTimeout(() => finish({ status: null, text: '' }), 50));
    req.write(opts.body, () => {
      if (opts.abortAfterMs === undefined) req.end();
      else setTimeout(() => req.destroy(), opts.abortAfterMs);
    });
  });
}

/** A 4xx, or a connection closed without an answer; never a 5xx, never a hang. */
function expectRefused(what: string, r: Raw, allowClosed = false): void {
  const ok = r.status === null ? allowClosed : r.status >= 400 && r.status < 500;
  if (!ok) throw new Error(`${what}: answered ${r.status} ${r.text.slice(0, 300)}`);
  expect(r.text).not.toMatch(/ at .*\.(ts|js):\d+/);
}

const part = (name: string, value: string | Buffer, filename?: string): Buffer =>
  Buffer.concat([
    Buffer.from(
      `--${B}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n` +
        (filename ? 'Content-Type: application/octet-stream\r\n' : '') +
        '\r\n',
    ),
    Buffer.isBuffer(value) ? value : Buffer.from(value),
    Buffer.from('\r\n'),
  ]);
const closing = Buffer.from(`--${B}--\r\n`);

/**
 * Cut points of `body`: every `step`-th byte, and every byte around each boundary and header
 * end, up to the last one that leaves the closing delimiter (`--B--`) unfinished.
 */
function cutPoints(body: Buffer, step: number): number[] {
  const points = new Set<number>([0]);
  for (let at = 0; at < body.length; at += step) points.add(at);
  for (const marker of [`--${B}`, '\r\n\r\n']) {
    for (let at = body.indexOf(marker); at >= 0; at = body.indexOf(marker, at + 1)) {
      for (let d = -2; d <= marker.length + 2; d++) points.add(at + d);
    }
  }
  return [...points].filter((p) => p >= 0 && p < body.length - 2).sort((a, b) => a - b);
}

/** Waits for `check` to pass (the server notices a dropped connection on its own time). */
async function eventually(check: () => Promise<void> | void, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('upload bodies that break off', () => {
  let t: TestApp;
  let owner: TestUser;
  let spoolDir: string;
  let errorLog: jest.SpyInstance;
  const previousTmp = process.env.TMPDIR;
  beforeAll(async () => {
    t = await startAppOn('filesystem', { MAX_UPLOAD_BYTES: String(MAX_UPLOAD), MAX_UPLOAD_FILES: '3' });
    owner = await makeUser(t.app);
    // the service's one logger, as every request context holds it
    const ctx = await t.app.contexts.forRequest('upload-fuzz', undefined, true);
    errorLog = jest.spyOn(ctx.log, 'error');
    // GraphQL upload spools go to the process's temporary directory: this test's own
    spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-spool-'));
    process.env.TMPDIR = spoolDir;
  });
  afterAll(async () => {
    process.env.TMPDIR = previousTmp;
    if (previousTmp === undefined) delete process.env.TMPDIR;
    await t.close();
    fs.rmSync(spoolDir, { recursive: true, force: true });
  });
  afterEach(() => {
    const calls = errorLog.mock.calls;
    errorLog.mockClear();
    expect(calls).toEqual([]);
  });

  const auth = () => ({ authorization: `Bearer ${owner.key}` });
  const formUrl = (ds: string) => `${t.url}/api/v2/datasets/${ds}/files`;
  const formHeaders = (boundary = B) => ({
    ...auth(),
    'content-type': `multipart/form-data; boundary=${boundary}`,
  });
  const gqlHeaders = () => ({ ...formHeaders(), 'apollo-require-preflight': 'true' });

  /** The process serves on, and nothing of the failed uploads to `ds` is left anywhere. */
  async function expectCleanAfter(ds: string): Promise<void> {
    const live = await fetch(`${t.url}/health/live`);
    expect(live.status).toBe(200);
    const ping = await gql(t.url, owner.key, '{ __typename }');
    expect(ping.data).toEqual({ __typename: 'Query' });
    await eventually(async () => {
      const files = await rest(t.url, 'GET', `/datasets/${ds}/files`, { key: owner.key });
      expect(files.body).toEqual([]);
      expect((await rest(t.url, 'GET', `/datasets/${ds}`, { key: owner.key })).body.size).toBe(0);
      // no object of the dataset, and nothing in the store's working directories (.tmp, .multipart)
      expect(await listKeys(t.app.services.file.store, `${ds}/`)).toEqual([]);
      expect(await listKeys(t.app.services.file.store, '.')).toEqual([]);
      expect(fs.readdirSync(spoolDir)).toEqual([]);
    });
  }

  describe('REST form upload', () => {
    test('the probe: a form without its closing boundary is a 4xx and the process serves on', async () => {
      const ds = await makeDataset(t, owner);
      const r = await raw(formUrl(ds), {
        headers: { ...auth(), 'content-type': 'multipart/form-data; boundary=b' },
        body: Buffer.from(
          '--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello',
        ),
      });
      expectRefused('probe', r);
      await expectCleanAfter(ds);
    });

    test('a form cut at any point is a 4xx and leaves nothing', async () => {
      const ds = await makeDataset(t, owner);
      const body = Buffer.concat([
        part('note', 'first field'),
        part('file', randomBytes(300), 'cut.bin'),
        closing,
      ]);
      for (const at of cutPoints(body, 23)) {
        expectRefused(
          `cut at ${at}`,
          await raw(formUrl(ds), { headers: formHeaders(), body: body.subarray(0, at) }),
        );
      }
      await expectCleanAfter(ds);
      // the whole form is taken
      const whole = await raw(formUrl(ds), { headers: formHeaders(), body });
      expect(whole.status).toBe(201);
    });

    test('garbage boundaries, bad part headers and wrong content types are 4xx', async () => {
      const ds = await makeDataset(t, owner);
      const file = part('file', 'hello', 'a.txt');
      const cases: [string, Record<string, string>, Buffer][] = [
        ['another boundary in the body', formHeaders('other'), Buffer.concat([file, closing])],
        ['no boundary', { ...auth(), 'content-type': 'multipart/form-data' }, Buffer.concat([file, closing])],
        ['an empty boundary', { ...auth(), 'content-type': 'multipart/form-data; boundary=' }, file],
        ['a boundary of 200 characters', formHeaders('x'.repeat(200)), Buffer.concat([file, closing])],
        ['only the closing boundary', formHeaders(), closing],
        ['an empty body', formHeaders(), Buffer.alloc(0)],
        ['a part without headers', formHeaders(), Buffer.from(`--${B}\r\n\r\nhello\r\n--${B}--\r\n`)],
        [
          'a part header that never ends',
          formHeaders(),
          Buffer.from(
            `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a"${'x'.repeat(20_000)}`,
          ),
        ],
        [
          'a header line without a colon',
          formHeaders(),
          Buffer.from(`--${B}\r\nnonsense\r\n\r\nhello\r\n--${B}--\r\n`),
        ],
        [
          'a file part whose headers end at the end of the body',
          formHeaders(),
          Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n`),
        ],
        ['binary noise', formHeaders(), randomBytes(4096)],
        ['multipart/mixed', { ...auth(), 'content-type': `multipart/mixed; boundary=${B}` }, file],
        ['a second file part', formHeaders(), Buffer.concat([file, part('file', 'again', 'b.txt'), closing])],
      ];
      for (const [name, headers, body] of cases)
        expectRefused(name, await raw(formUrl(ds), { headers, body }));
      await expectCleanAfter(ds);
    });

    test('oversize forms are 413, declared or streamed', async () => {
      const ds = await makeDataset(t, owner);
      const big = Buffer.concat([part('file', randomBytes(MAX_UPLOAD + 1), 'big.bin'), closing]);
      const streamed = await raw(formUrl(ds), { headers: formHeaders(), body: big, declared: null });
      expect(streamed.status).toBe(413);
      const declared = await raw(formUrl(ds), {
        headers: formHeaders(),
        body: big.subarray(0, 1000),
        declared: 10 * 1024 * 1024 * 1024,
      });
      expect(declared.status).toBe(413);
      await expectCleanAfter(ds);
    });

    test('connections dropped mid-body, at once or after a stall, leave nothing', async () => {
      const ds = await makeDataset(t, owner);
      const body = Buffer.concat([part('file', randomBytes(200_000), 'gone.bin'), closing]);
      for (const [sent, waitMs] of [
        [60, 0],
        [60, 300],
        [100_000, 0],
        [100_000, 300],
        [body.length - 10, 300],
      ]) {
        const r = await raw(formUrl(ds), {
          headers: formHeaders(),
          body: body.subarray(0, sent),
          declared: body.length,
          abortAfterMs: waitMs,
        });
        expectRefused(`dropped after ${sent} bytes`, r, true);
      }
      await expectCleanAfter(ds);
    });
  });

  describe('GraphQL multipart', () => {
    const ADD = (alias: string, v: string) =>
      `${alias}: addDatasetFile(dataset: $d, file: $${v}) { created file { size } }`;
    const streamed = (ds: string, data: Buffer) =>
      Buffer.concat([
        part(
          'operations',
          JSON.stringify({
            query: `mutation ($d: ID!, $f: Upload!) { ${ADD('a', 'f')} }`,
            variables: { d: ds, f: null },
          }),
        ),
        part('map', JSON.stringify({ 0: ['variables.f'] })),
        part('0', data, 'one.bin'),
        closing,
      ]);
    const spooled = (ds: string, data: Buffer) =>
      Buffer.concat([
        part(
          'operations',
          JSON.stringify({
            query: `mutation ($d: ID!, $x: Upload!, $y: Upload!) { ${ADD('a', 'x')} ${ADD('b', 'y')} }`,
            variables: { d: ds, x: null, y: null },
          }),
        ),
        part('map', JSON.stringify({ 0: ['variables.x'], 1: ['variables.y'] })),
        part('0', data, 'one.bin'),
        part('1', Buffer.from(data).reverse(), 'two.bin'),
        closing,
      ]);

    /** A 4xx, or a GraphQL answer whose every error has a client error's code. */
    function expectClientErrors(what: string, r: Raw, allowClosed = false): void {
      if (r.status === null || r.status >= 400) {
        expectRefused(what, r, allowClosed);
        return;
      }
      const body = JSON.parse(r.text) as { errors?: { extensions?: { code?: string } }[] };
      const codes = (body.errors ?? []).map((e) => e.extensions?.code);
      if (!codes.length || codes.some((c) => !c || c === 'INTERNAL_SERVER_ERROR'))
        throw new Error(`${what}: answered ${r.status} ${r.text.slice(0, 300)}`);
    }

    test('a truncated upload (no closing boundary) is a client error, not an internal one', async () => {
      const ds = await makeDataset(t, owner);
      const body = streamed(ds, Buffer.from('hello'));
      const r = await raw(`${t.url}/graphql`, {
        headers: gqlHeaders(),
        body: body.subarray(0, body.length - closing.length - 2),
      });
      expect(r.status).toBeLessThan(500);
      const errors = (JSON.parse(r.text) as { errors: { extensions: { code: string } }[] }).errors;
      expect(errors[0].extensions.code).toBe('BAD_REQUEST');
      await expectCleanAfter(ds);
    });

    test.each([
      ['streamed', streamed],
      ['spooled', spooled],
    ])('a %s upload cut at any point is a client error and leaves nothing', async (_n, build) => {
      const ds = await makeDataset(t, owner);
      const body = build(ds, randomBytes(2000));
      for (const at of cutPoints(body, 97)) {
        expectClientErrors(
          `cut at ${at}`,
          await raw(`${t.url}/graphql`, { headers: gqlHeaders(), body: body.subarray(0, at) }),
        );
      }
      await expectCleanAfter(ds);
    });

    test.each([
      ['streamed', streamed],
      ['spooled', spooled],
    ])('a %s upload dropped mid-body, at once or after a stall, leaves nothing', async (_n, build) => {
      const ds = await makeDataset(t, owner);
      const body = build(ds, randomBytes(200_000));
      const head = body.indexOf('one.bin') + 200;
      for (const [sent, waitMs] of [
        [head, 0],
        [head, 300],
        [head + 100_000, 300],
        [body.length - 10, 300],
      ]) {
        const r = await raw(`${t.url}/graphql`, {
          headers: gqlHeaders(),
          body: body.subarray(0, sent),
          declared: body.length,
          abortAfterMs: waitMs,
        });
        expectClientErrors(`dropped after ${sent} bytes`, r, true);
      }
      await expectCleanAfter(ds);
    });

    test('garbage boundaries and oversize files are client errors', async () => {
      const ds = await makeDataset(t, owner);
      const good = streamed(ds, Buffer.from('x'));
      const url = `${t.url}/graphql`;
      expectClientErrors(
        'another boundary',
        await raw(url, {
          headers: { ...gqlHeaders(), 'content-type': 'multipart/form-data; boundary=zz' },
          body: good,
        }),
      );
      expectClientErrors('noise', await raw(url, { headers: gqlHeaders(), body: randomBytes(4096) }));
      const fields = good.subarray(0, good.indexOf(`--${B}\r\nContent-Disposition: form-data; name="0"`));
      const badPart = Buffer.from(`--${B}\r\nnonsense\r\n\r\nx\r\n--${B}--\r\n`);
      expectClientErrors(
        'a malformed file part header',
        await raw(url, { headers: gqlHeaders(), body: Buffer.concat([fields, badPart]) }),
      );
      const big = await raw(url, {
        headers: gqlHeaders(),
        body: streamed(ds, randomBytes(MAX_UPLOAD + 1)),
        declared: null,
      });
      expectClientErrors('oversize', big);
      expect(big.text).toContain('PAYLOAD_TOO_LARGE');
      await expectCleanAfter(ds);
    });
  });

  describe('resumable chunks', () => {
    test('wrong Content-Range, wrong lengths, broken and dropped chunks: 4xx, the session resumes', async () => {
      const ds = await makeDataset(t, owner);
      const data = randomBytes(100_000);
      const init = await rest(t.url, 'POST', `/datasets/${ds}/upload/initiate`, {
        key: owner.key,
        body: { filename: 'chunks.bin', size: data.length },
      });
      const uri = (init.body.resumable_uri as string).replace(t.app.config.publicBaseUrl, t.url);
      const half = 50_000;
      const first = await putChunk(uri, `bytes 0-${half - 1}/${data.length}`, data.subarray(0, half));
      expect(first.status).toBe(308);

      const ranges = [
        'garbage',
        'bytes',
        'bytes=0-9/100000',
        'bytes 9-0/100000',
        'bytes 0-9/5',
        'bytes 0-99999/99999',
        `bytes 0-${data.length}/${data.length}`,
        'bytes -1-9/100000',
        'bytes 99999999999999999-99999999999999999/99999999999999999',
        'bytes */*x',
      ];
      for (const range of ranges) {
        const r = await raw(uri, {
          method: 'PUT',
          headers: { 'content-range': range },
          body: Buffer.from('0123456789'),
        });
        expectRefused(`Content-Range ${range}`, r);
      }
      const at = (n: number) => `bytes ${half}-${half + n - 1}/${data.length}`;
      const rest2 = data.subarray(half);
      const broken: [string, RawOptions][] = [
        [
          'Content-Length short of the range',
          { method: 'PUT', headers: { 'content-range': at(1000) }, body: rest2.subarray(0, 999) },
        ],
        [
          'Content-Length past the range',
          { method: 'PUT', headers: { 'content-range': at(1000) }, body: rest2.subarray(0, 1001) },
        ],
        [
          'a chunked body past its range',
          {
            method: 'PUT',
            headers: { 'content-range': at(1000) },
            body: rest2.subarray(0, 5000),
            declared: null,
          },
        ],
        [
          'a chunked body short of its range',
          {
            method: 'PUT',
            headers: { 'content-range': at(5000) },
            body: rest2.subarray(0, 1000),
            declared: null,
          },
        ],
      ];
      for (const [name, opts] of broken) expectRefused(name, await raw(uri, opts));
      for (const waitMs of [0, 300]) {
        const r = await raw(uri, {
          method: 'PUT',
          headers: { 'content-range': at(rest2.length) },
          body: rest2.subarray(0, 20_000),
          declared: rest2.length,
          abortAfterMs: waitMs,
        });
        expectRefused(`dropped after a ${waitMs} ms stall`, r, true);
      }
      // nothing was taken from the broken chunks, and no lease is left: the upload resumes
      await eventually(async () => {
        const probe = await putChunk(uri, `bytes */${data.length}`, null);
        expect(probe).toMatchObject({ status: 308, range: `bytes=0-${half - 1}` });
        const rows = await t.app.orm.em
          .fork()
          .getConnection()
          .execute('select lease_holder from upload_session where unique_id = ?', [init.body.upload_id]);
        expect(rows).toEqual([{ lease_holder: null }]);
      });
      const last = await putChunk(uri, `bytes ${half}-${data.length - 1}/${data.length}`, rest2);
      expect(last.status).toBe(200);
      const done = await rest(t.url, 'POST', `/datasets/${ds}/upload/complete`, {
        key: owner.key,
        body: { upload_id: init.body.upload_id, sha256_hash: sha256(data) },
      });
      expect(done.body.sha256_hash).toBe(sha256(data));
      expect(await listKeys(t.app.services.file.store, '.')).toEqual([]);
    });
  });

  describe('archive download', () => {
    /** Descriptors of this process open on files of the store. */
    const openStoreFiles = () => {
      const root = fs.realpathSync(t.dataDir);
      return fs.readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(root);
        } catch {
          return false;
        }
      });
    };

    test('a client that goes away mid-archive leaves no error and no open file', async () => {
      const ds = await makeDataset(t, owner);
      for (let i = 0; i < 3; i++) {
        const r = await formUpload(t.url, owner.key, ds, [
          { name: `f${i}.bin`, data: randomBytes(MAX_UPLOAD) },
        ]);
        expect(r.status).toBe(201);
      }
      for (const readBytes of [0, 1, 64 * 1024]) {
        await new Promise<void>((resolve, reject) => {
          const req = http.get(`${t.url}/api/v2/datasets/${ds}/download`, { headers: auth() }, (res) => {
            expect(res.statusCode).toBe(200);
            let seen = 0;
            res.on('data', (c: Buffer) => {
              seen += c.length;
              if (seen >= readBytes) {
                res.pause();
                req.destroy();
                resolve();
              }
            });
          });
          req.on('error', (err) => {
            if (!req.destroyed) reject(err);
          });
        });
      }
      if (process.platform === 'linux') await eventually(() => expect(openStoreFiles()).toEqual([]));
      expect((await fetch(`${t.url}/health/live`)).status).toBe(200);
      const whole = await fetch(`${t.url}/api/v2/datasets/${ds}/download`, { headers: auth() });
      expect((await whole.arrayBuffer()).byteLength).toBeGreaterThan(3 * MAX_UPLOAD);
    });
  });

  describe('persisted queries', () => {
    test('a hash that does not match the query is a 400 with a client error code', async () => {
      const res = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify({
          query: '{ __typename }',
          extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } },
        }),
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { errors: { extensions: { code: string } }[] };
      expect(body.errors[0].extensions.code).toBe('BAD_REQUEST');
      // and, like any client error, it is not logged as an error (afterEach)
    });
  });
});
