import sharp from 'sharp';
import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';
import { formUpload, makeDataset } from '../support/files';
import type { ByteRange } from '../../src/core/storage/object-store';

/**
 * Previews of a file's first bytes (`GET /files/{id}/preview`, `filePreview`), an image's bytes
 * (`GET /files/{id}/preview/image`) and thumbnails by URL (`GET /thumbnails/{id}/image`): one
 * bounded range read, the byte check of downloads (404 to whoever may not read the dataset, as a
 * missing file), ETag and 304.
 */
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let ds: string;
const reads: (ByteRange | undefined)[] = [];

beforeAll(async () => {
  t = await startTestApp();
  [owner, stranger] = await Promise.all([makeUser(t.app), makeUser(t.app)]);
  ds = await makeDataset(t, owner, 'previews');
  const store = t.app.services.download.store;
  const get = store.get.bind(store);
  store.get = (key, range) => {
    reads.push(range);
    return get(key, range);
  };
});
afterAll(async () => {
  await t?.close();
});

async function upload(name: string, data: Buffer): Promise<string> {
  const up = await formUpload(t.url, owner.key, ds, [{ name, data }]);
  expect(up.status).toBeLessThan(300);
  const body = up.body as { mfid?: string; unique_id?: string };
  return (body.mfid ?? body.unique_id) as string;
}

const preview = (id: string, key = owner.key) => rest(t.url, 'GET', `/files/${id}/preview`, { key });

test('a large CSV: its first 64 KiB in one range read, never the whole file', async () => {
  const line = 'a,b,"c, quoted"\n';
  const id = await upload('big.csv', Buffer.from('x,y,z\n' + line.repeat(70_000)));
  reads.length = 0;
  const p = await preview(id);
  expect(p.status).toBe(200);
  expect(p.body).toMatchObject({ kind: 'csv', bytes_read: 65536, truncated: true, file_id: id });
  expect((p.body.text as string).startsWith('x,y,z\na,b,"c, quoted"\n')).toBe(true);
  expect(reads).toEqual([{ start: 0, end: 65535 }]);

  const g = await gql(
    t.url,
    owner.key,
    `query($f: ID!) { filePreview(file: $f) { kind bytesRead truncated text } }`,
    {
      f: id,
    },
  );
  expect(g.errors).toBeUndefined();
  expect(g.data.filePreview).toMatchObject({ kind: 'csv', bytesRead: 65536, truncated: true });
});

test('text, JSON, TSV, an unknown binary, a UTF-8 character cut by the limit', async () => {
  const json = await upload('m.json', Buffer.from('{"a":1,"b":[1,2]}'));
  expect((await preview(json)).body).toMatchObject({
    kind: 'json',
    text: '{"a":1,"b":[1,2]}',
    truncated: false,
  });
  const tsv = await upload('t.tsv', Buffer.from('h1\th2\n1\t2\n'));
  expect((await preview(tsv)).body).toMatchObject({ kind: 'tsv', text: 'h1\th2\n1\t2\n' });
  const bin = await upload('x.bin', Buffer.from([0, 1, 2, 3]));
  expect((await preview(bin)).body).toMatchObject({ kind: 'none', text: null });
  // 65535 ASCII bytes then "é" (2 bytes): the read stops inside it, and it is dropped
  const cut = await upload('cut.txt', Buffer.concat([Buffer.alloc(65535, 'a'), Buffer.from('é and more')]));
  const c = (await preview(cut)).body;
  expect(c).toMatchObject({ kind: 'text', truncated: true, bytes_read: 65536 });
  expect(c.text).toBe('a'.repeat(65535));
});

test('an image: its bytes with an ETag, 304 when unchanged; the stranger gets 404 as for a missing file', async () => {
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#c33' } })
    .png()
    .toBuffer();
  const id = await upload('pic.png', png);
  const p = await preview(id);
  expect(p.body).toMatchObject({ kind: 'image', image_path: `/api/v2/files/${id}/preview/image` });
  const img = await fetch(`${t.url}${p.body.image_path as string}`, {
    headers: { authorization: `Bearer ${owner.key}` },
  });
  expect(img.status).toBe(200);
  expect(img.headers.get('content-type')).toBe('image/png');
  expect(img.headers.get('cache-control')).toBe('private, no-cache');
  expect(Buffer.from(await img.arrayBuffer()).equals(png)).toBe(true);
  const etag = img.headers.get('etag') ?? '';
  expect(etag).not.toBe('');
  const again = await fetch(`${t.url}${p.body.image_path as string}`, {
    headers: { authorization: `Bearer ${owner.key}`, 'if-none-match': etag },
  });
  expect(again.status).toBe(304);

  const missing = await preview('0000000000000000000000000a', stranger.key);
  for (const path of [`/files/${id}/preview`, `/files/${id}/preview/image`, `/files/${id}/download`]) {
    const r = await rest(t.url, 'GET', path, { key: stranger.key });
    expect(r.status).toBe(404);
    expect(JSON.stringify(r.body).replace(id, 'X')).toBe(
      JSON.stringify(missing.body).replace('0000000000000000000000000a', 'X'),
    );
  }
  // a CSV has no image preview
  const csv = await upload('small.csv', Buffer.from('a\n1\n'));
  expect((await rest(t.url, 'GET', `/files/${csv}/preview/image`, { key: owner.key })).status).toBe(404);
});

test('thumbnails by URL: the GraphQL url serves the JPEG with an ETag; 304; a stranger 404; an unknown query parameter 422', async () => {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3c3' } })
    .png()
    .toBuffer();
  const add = await rest(t.url, 'POST', `/datasets/${ds}/thumbnails`, {
    key: owner.key,
    body: { thumbnail_name: 'green', thumbnail_b64str: png.toString('base64') },
  });
  expect(add.status).toBe(201);
  const g = await gql(t.url, owner.key, `query($d: ID!) { dataset(id: $d) { thumbnails { id url } } }`, {
    d: ds,
  });
  const [thumb] = g.data.dataset.thumbnails as { id: number; url: string }[];
  expect(thumb.url).toMatch(new RegExp(`^/api/v2/thumbnails/${thumb.id}/image\\?v=`));
  const res = await fetch(`${t.url}${thumb.url}`, { headers: { authorization: `Bearer ${owner.key}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/jpeg');
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(bytes.subarray(0, 2).toString('hex')).toBe('ffd8');
  const etag = res.headers.get('etag') ?? '';
  const again = await fetch(`${t.url}${thumb.url}`, {
    headers: { authorization: `Bearer ${owner.key}`, 'if-none-match': etag },
  });
  expect(again.status).toBe(304);
  const denied = await fetch(`${t.url}${thumb.url}`, {
    headers: { authorization: `Bearer ${stranger.key}` },
  });
  const unknown = await fetch(`${t.url}/api/v2/thumbnails/999999999/image`, {
    headers: { authorization: `Bearer ${stranger.key}` },
  });
  expect([denied.status, unknown.status]).toEqual([404, 404]);
  expect((await denied.text()).replace(String(thumb.id), 'X')).toBe(
    (await unknown.text()).replace('999999999', 'X'),
  );
  const extra = await rest(t.url, 'GET', `/thumbnails/${thumb.id}/image`, {
    key: owner.key,
    query: { w: 1 },
  });
  expect(extra.status).toBe(422);
});
