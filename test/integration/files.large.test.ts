import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';
import { newDataset } from '../support/catalog';
import { formUpload } from '../support/files';
import { rawQuery } from '../../src/core/db/raw';
import { newMfid } from '../../src/core/ids';
import { ARCHIVE_BATCH } from '../../src/modules/file/archive-files';

/**
 * A dataset of more files than one archive batch: the zip holds every stored file once (names
 * unique across batches) and lists the remote ones; `after` pages the REST lists by MFID; the
 * GraphQL file pages of several datasets in one request each stop at their own page.
 */
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let ds: string;
let other: string;
const N = ARCHIVE_BATCH + 250;
const ids: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  [owner, stranger] = await Promise.all([makeUser(t.app), makeUser(t.app)]);
  ds = await newDataset(t.url, owner.key, { dataset_name: 'many files' });
  other = await newDataset(t.url, owner.key, { dataset_name: 'a few files' });
  const first = await formUpload(t.url, owner.key, ds, [{ name: 'dup.dat', data: Buffer.from('one') }]);
  expect(first.status).toBe(201);
  const em = t.app.orm.em.fork();
  const [{ storage_key: key }] = await rawQuery<{ storage_key: string }>(
    em,
    'select storage_key from associated_file where dataset_mfid = ?',
    [ds],
  );
  ids.push((first.body as { mfid: string }).mfid);
  const fresh = Array.from({ length: N - 1 }, () => newMfid());
  // the last seeded name repeats the first file's, in a later batch
  const names = fresh.map((_, i) =>
    i === fresh.length - 1 ? 'dup.dat' : `f${String(i).padStart(5, '0')}.dat`,
  );
  const hashes = fresh.map(() => randomBytes(32).toString('hex'));
  await rawQuery(
    em,
    `insert into associated_file (unique_id, dataset_mfid, filename, size, sha256, storage_backend, storage_key)
     select id, ?, name, 3, sha, 'gcs', ? from unnest(?::text[], ?::text[], ?::text[]) as t(id, name, sha)`,
    [ds, key, ...[fresh, names, hashes].map((a) => `{${a.join(',')}}`)],
  );
  ids.push(...fresh);
  ids.sort();
  for (const name of ['x.dat', 'y.dat']) {
    expect((await formUpload(t.url, owner.key, other, [{ name, data: randomBytes(8) }])).status).toBe(201);
  }
  const remote = await rest(t.url, 'POST', `/datasets/${ds}/files`, {
    key: owner.key,
    body: { filename: 'far.h5', storage_backend: 'nersc', size: 9 },
  });
  expect(remote.status).toBe(201);
  ids.push((remote.body as { mfid: string }).mfid);
  ids.sort();
}, 120_000);
afterAll(() => t.close());

/** The entry names of a ZIP, from its central directory. */
function zipNames(zip: Buffer): string[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    names.push(zip.subarray(at + 46, at + 46 + nameLength).toString());
    at += 46 + nameLength + extra + comment;
  }
  return names;
}

test('the archive holds every stored file once, across batches, and lists the remote one', async () => {
  const res = await fetch(`${t.url}/api/v2/datasets/${ds}/download`, {
    headers: { authorization: `Bearer ${owner.key}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-archive-skipped')).toBe('1');
  const names = zipNames(Buffer.from(await res.arrayBuffer()));
  expect(names[0]).toBe('SKIPPED.tsv');
  expect(names).toHaveLength(N + 1);
  expect(new Set(names).size).toBe(names.length);
  expect(names).toEqual(
    expect.arrayContaining([
      'dup.dat',
      'dup (2).dat',
      'f00000.dat',
      `f${String(N - 3).padStart(5, '0')}.dat`,
    ]),
  );
  // a stranger gets the same 404 as for a dataset that does not exist
  const hidden = await fetch(`${t.url}/api/v2/datasets/${ds}/download`, {
    headers: { authorization: `Bearer ${stranger.key}` },
  });
  expect(hidden.status).toBe(404);
});

test('REST: `after` pages the files and the download links by MFID', async () => {
  const page = await rest(t.url, 'GET', `/datasets/${ds}/files`, {
    key: owner.key,
    query: { limit: 100, after: ids[499] },
  });
  expect(page.status).toBe(200);
  expect(page.body.map((f: { mfid: string }) => f.mfid)).toEqual(ids.slice(500, 600));
  const links = await rest(t.url, 'GET', `/datasets/${ds}/download_links`, {
    key: owner.key,
    query: { limit: 10, after: ids[99] },
  });
  expect(links.status).toBe(200);
  // the remote file (the newest MFID) is not among these; remote files have no link
  expect(Object.keys(links.body).sort()).toEqual(ids.slice(100, 110));
  const bad = await rest(t.url, 'GET', `/datasets/${ds}/files`, { key: owner.key, query: { after: 'nope' } });
  expect(bad.status).toBe(422);
});

test('GraphQL: each dataset of a batch gets its own page of files', async () => {
  const r = await gql<any>(
    t.url,
    owner.key,
    `query($a: ID!, $b: ID!) {
      a: dataset(id: $a) { files(first: 3) { pageInfo { hasNextPage } nodes { uniqueId } } }
      b: dataset(id: $b) { files(first: 3) { pageInfo { hasNextPage } nodes { filename } } }
    }`,
    { a: ds, b: other },
  );
  expect(r.errors).toBeUndefined();
  expect(r.data.a.files.nodes.map((n: { uniqueId: string }) => n.uniqueId)).toEqual(ids.slice(-3).reverse());
  expect(r.data.a.files.pageInfo.hasNextPage).toBe(true);
  expect(r.data.b.files.nodes.map((n: { filename: string }) => n.filename).sort()).toEqual([
    'x.dat',
    'y.dat',
  ]);
  expect(r.data.b.files.pageInfo.hasNextPage).toBe(false);
});

test('a client leaving mid-archive costs the service nothing: it keeps answering', async () => {
  for (let i = 0; i < 3; i++) {
    const controller = new AbortController();
    const res = await fetch(`${t.url}/api/v2/datasets/${ds}/download`, {
      headers: { authorization: `Bearer ${owner.key}` },
      signal: controller.signal,
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).done).toBe(false);
    controller.abort();
    await reader.cancel().catch(() => undefined);
  }
  await new Promise((r) => setTimeout(r, 300));
  expect((await rest(t.url, 'GET', `/datasets/${ds}`, { key: owner.key })).status).toBe(200);
});
