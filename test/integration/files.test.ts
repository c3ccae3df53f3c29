import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';
import { STORE_KINDS, listKeys, startAppOn } from '../support/storage';
import { formUpload, gqlUpload, makeDataset, sha256, userWith } from '../support/files';

/** The start of a GraphQL multipart upload request, up to the file's bytes. */
function multipartHead(boundary: string, ds: string, selection: string, filename: string): string {
  const operations = JSON.stringify({
    query: `mutation ($d: ID!, $f: Upload!) { addDatasetFile(dataset: $d, file: $f) ${selection} }`,
    variables: { d: ds, f: null },
  });
  return [
    `--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${operations}\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.f"]}\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="${filename}"\r\n`,
    'Content-Type: application/octet-stream\r\n\r\n',
  ].join('');
}

/** The HTTP request of a hand-written GraphQL multipart upload of `length` bytes. */
function multipartRequest(base: string, key: string, boundary: string, length: number): http.RequestOptions {
  const url = new URL(`${base}/graphql`);
  return {
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'apollo-require-preflight': 'true',
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(length),
    },
  };
}

describe.each(STORE_KINDS)('files on the %s store', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  beforeAll(async () => {
    t = await startAppOn(kind, { MAX_UPLOAD_BYTES: String(2 * 1024 * 1024) });
    owner = await makeUser(t.app);
    stranger = await makeUser(t.app);
  });
  afterAll(() => t.close());

  const size = async (ds: string) =>
    (await rest(t.url, 'GET', `/datasets/${ds}`, { key: owner.key })).body.size;

  test('GraphQL upload stores the bytes, dedups identical content, keeps the dataset size', async () => {
    const ds = await makeDataset(t, owner);
    const data = randomBytes(300_000);
    const first = await gqlUpload(t.url, owner.key, ds, 'scan.h5', data, { ingestor: 'ImageIngestor' });
    expect(first.body.errors).toBeUndefined();
    const added = first.body.data.addDatasetFile;
    expect(added).toMatchObject({
      created: true,
      ingestor: 'ImageIngestor',
      file: {
        filename: 'scan.h5',
        size: data.length,
        sha256: sha256(data),
        storageBackend: 'gcs',
        stored: true,
      },
    });
    expect(await size(ds)).toBe(data.length);
    const again = await gqlUpload(t.url, owner.key, ds, 'copy-of-scan.h5', data);
    expect(again.body.data.addDatasetFile).toMatchObject({
      created: false,
      file: { uniqueId: added.file.uniqueId },
    });
    expect(await size(ds)).toBe(data.length);
    expect(await listKeys(t.app.services.file.store, `${ds}/`)).toEqual([`${ds}/${added.file.uniqueId}`]);

    const download = await fetch(added.file.downloadUrl.replace(t.app.config.publicBaseUrl, t.url));
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(data)).toBe(true);
  });

  test('GraphQL multipart needs the CSRF preflight header and an API key', async () => {
    const ds = await makeDataset(t, owner);
    const noPreflight = await gqlUpload(t.url, owner.key, ds, 'a.bin', Buffer.from('a'), {
      preflight: false,
    });
    expect(noPreflight.status).toBe(400);
    const anonymous = await gqlUpload(t.url, null, ds, 'a.bin', Buffer.from('a'));
    expect(anonymous.status).toBe(401);
  });

  test('concurrent identical uploads produce one record and one object', async () => {
    const ds = await makeDataset(t, owner);
    const data = randomBytes(200_000);
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) => gqlUpload(t.url, owner.key, ds, `same-${i}.bin`, data)),
    );
    const payloads = results.map((r) => r.body.data.addDatasetFile);
    expect(new Set(payloads.map((p) => p.file.uniqueId)).size).toBe(1);
    expect(payloads.filter((p) => p.created)).toHaveLength(1);
    const files = await rest(t.url, 'GET', `/datasets/${ds}/files`, { key: owner.key });
    expect(files.body).toHaveLength(1);
    expect(await size(ds)).toBe(data.length);
    expect(await listKeys(t.app.services.file.store, `${ds}/`)).toHaveLength(1);
  });

  test('form upload: created 201, duplicate 200, directory parts stripped from the name', async () => {
    const ds = await makeDataset(t, owner);
    const data = Buffer.from('hello, catalog');
    const r = await formUpload(t.url, owner.key, ds, [{ name: '../../etc/passwd', data }]);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      dataset_mfid: ds,
      filename: 'passwd',
      size: data.length,
      sha256_hash: sha256(data),
      // a stored file has its location as soon as its object is stored
      storage_path: `${kind === 's3' ? t.app.config.s3!.bucket : 'local-store'}/${ds}/passwd`,
      storage_backend: 'gcs',
    });
    const dup = await formUpload(t.url, owner.key, ds, [{ name: 'other.txt', data }]);
    expect(dup.status).toBe(200);
    expect(dup.body.mfid).toBe(r.body.mfid);
    const windows = await formUpload(t.url, owner.key, ds, [
      { name: 'C:\\data\\run1.csv', data: Buffer.from('1') },
    ]);
    expect(windows.body.filename).toBe('run1.csv');
  });

  test('names that are no file names are rejected, and nothing is stored', async () => {
    const ds = await makeDataset(t, owner);
    for (const name of ['..', 'dir/..', 'a/b/']) {
      const r = await formUpload(t.url, owner.key, ds, [{ name, data: Buffer.from('x') }]);
      expect(r.status).toBe(422);
      expect(r.body.fields[0].field).toBe('filename');
    }
    const g = await gqlUpload(t.url, owner.key, ds, '..', Buffer.from('x'));
    expect(g.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect((await rest(t.url, 'GET', `/datasets/${ds}/files`, { key: owner.key })).body).toEqual([]);
    expect(await listKeys(t.app.services.file.store, `${ds}/`)).toEqual([]);
  });

  test('oversize uploads fail clearly (413) and leave no record and no object', async () => {
    const ds = await makeDataset(t, owner);
    const big = randomBytes(2 * 1024 * 1024 + 10);
    const form = await formUpload(t.url, owner.key, ds, [{ name: 'big.bin', data: big }]);
    expect(form.status).toBe(413);
    expect(form.body.detail).toMatch(/maximum upload size/);
    const g = await gqlUpload(t.url, owner.key, ds, 'big.bin', big);
    expect(g.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    const init = await rest(t.url, 'POST', `/datasets/${ds}/upload/initiate`, {
      key: owner.key,
      body: { filename: 'big.bin', size: big.length },
    });
    expect(init.status).toBe(413);
    expect((await rest(t.url, 'GET', `/datasets/${ds}/files`, { key: owner.key })).body).toEqual([]);
    expect(await listKeys(t.app.services.file.store, `${ds}/`)).toEqual([]);
    if (kind === 'filesystem') expect(await listKeys(t.app.services.file.store, '.')).toEqual([]);
    expect(await size(ds)).toBe(0);
  });

  test('a GraphQL upload cut off mid-file leaves no record and no object', async () => {
    const ds = await makeDataset(t, owner);
    const boundary = 'catalog-abort-test';
    const head = multipartHead(boundary, ds, '{ created }', 'cut.bin');
    const req = http.request(multipartRequest(t.url, owner.key, boundary, head.length + 1024 * 1024 + 100));
    const closed = new Promise((resolve) => {
      req.on('error', resolve);
      req.on('close', resolve);
    });
    req.write(head);
    req.write(randomBytes(256 * 1024));
    await new Promise((r) => setTimeout(r, 300)); // the resolver is waiting for the rest
    req.destroy();
    await closed;
    // the server notices the cut, fails the upload and cleans up
    let files: unknown[] = [];
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 100));
      files = (await rest(t.url, 'GET', `/datasets/${ds}/files`, { key: owner.key })).body;
    }
    expect(files).toEqual([]);
    expect(await listKeys(t.app.services.file.store, `${ds}/`)).toEqual([]);
    if (kind === 'filesystem') expect(await listKeys(t.app.services.file.store, '.')).toEqual([]);
    expect(await size(ds)).toBe(0);
    // and the dataset still takes uploads
    const ok = await gqlUpload(t.url, owner.key, ds, 'whole.bin', randomBytes(1000));
    expect(ok.body.data.addDatasetFile.created).toBe(true);
  });

  test('a GraphQL upload arriving slowly is stored while it arrives, byte for byte', async () => {
    const ds = await makeDataset(t, owner);
    const boundary = 'catalog-slow-test';
    const head = multipartHead(boundary, ds, '{ created file { size sha256 } }', 'slow.bin');
    const tail = `\r\n--${boundary}--\r\n`;
    // 1.5 MiB plus a bit: more than one read of the spool, in 64 KiB pieces with pauses
    const data = randomBytes(1536 * 1024 + 4321);
    const reply = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        multipartRequest(
          t.url,
          owner.key,
          boundary,
          Buffer.byteLength(head) + data.length + Buffer.byteLength(tail),
        ),
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      void (async () => {
        req.write(head);
        for (let at = 0; at < data.length; at += 64 * 1024) {
          req.write(data.subarray(at, at + 64 * 1024));
          await new Promise((r) => setTimeout(r, 5));
        }
        req.end(tail);
      })();
    });
    const res = await reply;
    expect(res.status).toBe(200);
    const added = JSON.parse(res.body).data.addDatasetFile;
    expect(added).toEqual({
      created: true,
      file: { size: data.length, sha256: sha256(data) },
    });
    expect(await size(ds)).toBe(data.length);
  });

  test('a second file part fails the form upload and undoes the first', async () => {
    const ds = await makeDataset(t, owner);
    const r = await formUpload(t.url, owner.key, ds, [
      { name: 'a.txt', data: Buffer.from('first') },
      { name: 'b.txt', data: Buffer.from('second') },
    ]);
    expect(r.status).toBe(422);
    expect((await rest(t.url, 'GET', `/datasets/${ds}/files`, { key: owner.key })).body).toEqual([]);
    expect(await listKeys(t.app.services.file.store, `${ds}/`)).toEqual([]);
    expect(await size(ds)).toBe(0);
  });

  test('who may add, read, change and delete files', async () => {
    const ds = await makeDataset(t, owner);
    const viewer = await userWith(t, ds, 'viewer');
    const contributor = await userWith(t, ds, 'contributor');
    const editor = await userWith(t, ds, 'editor');
    expect((await formUpload(t.url, stranger.key, ds, [{ name: 'x', data: Buffer.from('x') }])).status).toBe(
      404,
    );
    expect((await formUpload(t.url, viewer.key, ds, [{ name: 'x', data: Buffer.from('x') }])).status).toBe(
      403,
    );
    expect((await formUpload(t.url, null, ds, [{ name: 'x', data: Buffer.from('x') }])).status).toBe(401);
    const mine = await formUpload(t.url, contributor.key, ds, [
      { name: 'c.txt', data: Buffer.from('by contributor') },
    ]);
    expect(mine.status).toBe(201);
    const owners = await formUpload(t.url, owner.key, ds, [{ name: 'o.txt', data: Buffer.from('by owner') }]);
    const id = mine.body.mfid as string;

    expect((await rest(t.url, 'GET', `/files/${id}`, { key: stranger.key })).status).toBe(404);
    expect((await rest(t.url, 'GET', `/files/${id}`, { key: viewer.key })).body.mfid).toBe(id);
    expect((await rest(t.url, 'GET', `/datasets/${ds}/files`, { key: stranger.key })).status).toBe(404);
    expect((await rest(t.url, 'GET', `/files/${id}/download_link`, { key: stranger.key })).status).toBe(404);
    const strangerList = await rest(t.url, 'GET', '/files', {
      key: stranger.key,
      query: { dataset_mfid: ds },
    });
    expect(strangerList.body).toEqual({ items: [], total: 0 });
    const strangerGql = await gql(
      t.url,
      stranger.key,
      `{ files(datasetId: "${ds}") { totalCount nodes { uniqueId } } }`,
    );
    expect(strangerGql.data.files).toEqual({ totalCount: 0, nodes: [] });

    const rename = { body: { storage_path: 'renamed/place.txt' } };
    expect((await rest(t.url, 'PATCH', `/files/${id}`, { key: viewer.key, ...rename })).status).toBe(403);
    expect((await rest(t.url, 'PATCH', `/files/${id}`, { key: contributor.key, ...rename })).status).toBe(
      200,
    );
    const others = await rest(t.url, 'PATCH', `/files/${owners.body.mfid}`, {
      key: contributor.key,
      ...rename,
    });
    expect(others.status).toBe(403);
    expect(
      (await rest(t.url, 'PATCH', `/files/${owners.body.mfid}`, { key: editor.key, ...rename })).status,
    ).toBe(200);

    expect((await rest(t.url, 'DELETE', `/files/${id}`, { key: contributor.key })).status).toBe(403);
    expect((await rest(t.url, 'DELETE', `/files/${id}`, { key: stranger.key })).status).toBe(404);
    expect((await rest(t.url, 'DELETE', `/files/${id}`, { key: editor.key })).status).toBe(200);
    expect((await rest(t.url, 'GET', `/files/${id}`, { key: owner.key })).status).toBe(404);
    expect(await listKeys(t.app.services.file.store, `${ds}/`)).toEqual([`${ds}/${owners.body.mfid}`]);
    expect(await size(ds)).toBe('by owner'.length);
  });

  test('file updates: storage_path and filename; service-held fields are refused', async () => {
    const ds = await makeDataset(t, owner);
    const f = (await formUpload(t.url, owner.key, ds, [{ name: 'a.txt', data: Buffer.from('abc') }])).body;
    const ok = await rest(t.url, 'PATCH', `/files/${f.mfid}`, {
      key: owner.key,
      body: { storage_path: `store/${ds}/a.txt`, filename: 'sub/b.txt', mfid: f.mfid },
    });
    expect(ok.body).toMatchObject({ storage_path: `store/${ds}/a.txt`, filename: 'b.txt' });
    const bad = await rest(t.url, 'PATCH', `/files/${f.mfid}`, {
      key: owner.key,
      body: { storage_backend: 'globus', sha256_hash: 'ab' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.fields.map((p: { field: string }) => p.field).sort()).toEqual([
      'sha256_hash',
      'storage_backend',
    ]);
    const unknown = await rest(t.url, 'PATCH', `/files/${f.mfid}`, {
      key: owner.key,
      body: { colour: 'red' },
    });
    expect(unknown.status).toBe(422);
    expect((await rest(t.url, 'GET', `/files/${f.mfid}`, { key: owner.key })).body.filename).toBe('b.txt');
  });

  test('remote files: catalogued, listed with their backend, never downloadable, not in the size', async () => {
    const ds = await makeDataset(t, owner);
    const r = await rest(t.url, 'POST', `/datasets/${ds}/files`, {
      key: owner.key,
      body: {
        filename: '/global/cfs/run7.h5',
        storage_backend: 'nersc',
        access_note: 'ask the PI',
        size: 123,
      },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      filename: 'run7.h5',
      storage_backend: 'nersc',
      storage_path: null,
      access_note: 'ask the PI',
      size: 123,
    });
    const patched = await rest(t.url, 'PATCH', `/files/${r.body.mfid}`, {
      key: owner.key,
      body: { storage_path: '/global/cfs/run7.h5' },
    });
    expect(patched.body.storage_path).toBe('/global/cfs/run7.h5');
    const list = await rest(t.url, 'GET', `/datasets/${ds}/files`, { key: owner.key });
    expect(list.body.map((f: { storage_backend: string }) => f.storage_backend)).toEqual(['nersc']);
    const link = await rest(t.url, 'GET', `/files/${r.body.mfid}/download_link`, { key: owner.key });
    expect(link.status).toBe(409);
    expect(link.body.detail).toMatch(/remote file on "nersc".*\/global\/cfs\/run7\.h5/);
    expect((await rest(t.url, 'GET', `/files/${r.body.mfid}/download`, { key: owner.key })).status).toBe(409);
    const noLinks = await rest(t.url, 'GET', `/datasets/${ds}/download_links`, { key: owner.key });
    expect(noLinks.status).toBe(404);
    expect(noLinks.body.detail).toBe(`No files found in storage for dataset ${ds}`);
    const gqlFile = await gql(
      t.url,
      owner.key,
      `{ file(id: "${r.body.mfid}") { stored downloadUrl storageBackend } }`,
    );
    expect(gqlFile.data.file).toEqual({ stored: false, downloadUrl: null, storageBackend: 'nersc' });
    expect(await size(ds)).toBe(0);

    const bad = await rest(t.url, 'POST', `/datasets/${ds}/files`, {
      key: owner.key,
      body: { filename: 'x', storage_backend: 'gcs', sha256_hash: 'nothex' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.fields.map((p: { field: string }) => p.field).sort()).toEqual([
      'sha256_hash',
      'storage_backend',
    ]);
    const missing = await rest(t.url, 'POST', `/datasets/${ds}/files`, {
      key: owner.key,
      body: { filename: 'x' },
    });
    expect(missing.body.fields[0]).toMatchObject({ field: 'storage_backend' });
  });

  test('downloads: signed links (no key needed, Authorization ignored), Range, HEAD, tampering refused', async () => {
    const ds = await makeDataset(t, owner);
    const data = randomBytes(100_000);
    const f = (await formUpload(t.url, owner.key, ds, [{ name: 'data.bin', data }])).body;
    const links = await rest(t.url, 'GET', `/datasets/${ds}/download_links`, { key: owner.key });
    expect(Object.keys(links.body)).toEqual([f.mfid]);
    const { url } = (await rest(t.url, 'GET', `/files/${f.mfid}/download_link`, { key: owner.key })).body;
    expect(url.startsWith(`${t.app.config.publicBaseUrl}/api/v2/signed/objects/`)).toBe(true);

    const withKey = await fetch(url.replace(t.app.config.publicBaseUrl, t.url), {
      headers: { authorization: `Bearer ${owner.key}`, range: 'bytes=100-199' },
    });
    expect(withKey.status).toBe(206);
    expect(Buffer.from(await withKey.arrayBuffer()).equals(data.subarray(100, 200))).toBe(true);
    if (kind === 's3') expect(withKey.redirected).toBe(true);

    const tampered = url
      .replace(/signature=[^&]+/, 'signature=AAAA')
      .replace(t.app.config.publicBaseUrl, t.url);
    expect((await fetch(tampered)).status).toBe(403);
    const otherKey = url.replace(f.mfid, 'x').replace(t.app.config.publicBaseUrl, t.url);
    expect((await fetch(otherKey)).status).toBe(403);

    const direct = await fetch(`${t.url}/api/v2/files/${f.mfid}/download`, {
      headers: { authorization: `Bearer ${owner.key}`, range: 'bytes=-10' },
    });
    expect(direct.status).toBe(206);
    expect(direct.headers.get('content-range')).toBe(
      `bytes ${data.length - 10}-${data.length - 1}/${data.length}`,
    );
    expect(direct.headers.get('content-disposition')).toContain('data.bin');
    const unsatisfiable = await fetch(`${t.url}/api/v2/files/${f.mfid}/download`, {
      headers: { authorization: `Bearer ${owner.key}`, range: `bytes=${data.length}-` },
    });
    expect(unsatisfiable.status).toBe(416);
    const head = await fetch(`${t.url}/api/v2/files/${f.mfid}/download`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${owner.key}` },
    });
    expect(head.headers.get('content-length')).toBe(String(data.length));
  });

  test('dataset archive: a streamed ZIP of the stored files, filtered by include patterns', async () => {
    const ds = await makeDataset(t, owner);
    await formUpload(t.url, owner.key, ds, [{ name: 'a.h5', data: Buffer.from('aaa') }]);
    await formUpload(t.url, owner.key, ds, [{ name: 'b.json', data: Buffer.from('{"b":1}') }]);
    await formUpload(t.url, owner.key, ds, [{ name: 'a.h5', data: Buffer.from('second a') }]);
    const all = await fetch(`${t.url}/api/v2/datasets/${ds}/download`, {
      headers: { authorization: `Bearer ${owner.key}` },
    });
    expect(all.headers.get('content-type')).toBe('application/zip');
    const zip = Buffer.from(await all.arrayBuffer());
    expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
    for (const name of ['a.h5', 'a (2).h5', 'b.json']) expect(zip.includes(Buffer.from(name))).toBe(true);
    const some = await fetch(`${t.url}/api/v2/datasets/${ds}/download?include=*.json`, {
      headers: { authorization: `Bearer ${owner.key}` },
    });
    const filtered = Buffer.from(await some.arrayBuffer());
    expect(filtered.includes(Buffer.from('b.json'))).toBe(true);
    expect(filtered.includes(Buffer.from('a.h5'))).toBe(false);
    expect(all.headers.get('x-archive-skipped')).toBe('0');
    expect(zip.includes(Buffer.from('SKIPPED.tsv'))).toBe(false);
    // a remote file cannot be archived: the manifest says so, nothing is left out silently
    const remote = await rest(t.url, 'POST', `/datasets/${ds}/files`, {
      key: owner.key,
      body: { filename: '/global/cfs/far.h5', storage_backend: 'nersc', size: 9 },
    });
    expect(remote.status).toBe(201);
    const withRemote = await fetch(`${t.url}/api/v2/datasets/${ds}/download`, {
      headers: { authorization: `Bearer ${owner.key}` },
    });
    expect(withRemote.headers.get('x-archive-skipped')).toBe('1');
    const manifest = Buffer.from(await withRemote.arrayBuffer());
    expect(manifest.includes(Buffer.from('SKIPPED.tsv'))).toBe(true);
    expect(manifest.includes(Buffer.from(`${remote.body.mfid}\tfar.h5\tremote file on "nersc"`))).toBe(true);
    for (const name of ['a.h5', 'a (2).h5', 'b.json'])
      expect(manifest.includes(Buffer.from(name))).toBe(true);
    // a pattern that excludes the remote file leaves it out of the manifest too
    const onlyJson = await fetch(`${t.url}/api/v2/datasets/${ds}/download?include=*.json`, {
      headers: { authorization: `Bearer ${owner.key}` },
    });
    expect(onlyJson.headers.get('x-archive-skipped')).toBe('0');
    await onlyJson.arrayBuffer();
  });

  test('GET /files: offset envelope across readable datasets, sha256_hash filter', async () => {
    const ds = await makeDataset(t, owner);
    const data = randomBytes(1000);
    const f = (await formUpload(t.url, owner.key, ds, [{ name: 'x.bin', data }])).body;
    const bySha = await rest(t.url, 'GET', '/files', {
      key: owner.key,
      query: { sha256_hash: sha256(data), limit: 1000 },
    });
    expect(bySha.body).toEqual({ items: [expect.objectContaining({ mfid: f.mfid })], total: 1 });
    expect(
      (await rest(t.url, 'GET', '/files', { key: stranger.key, query: { sha256_hash: sha256(data) } })).body,
    ).toEqual({
      items: [],
      total: 0,
    });
    expect((await rest(t.url, 'GET', '/files', { key: owner.key, query: { limit: 'x' } })).status).toBe(422);
  });
});
