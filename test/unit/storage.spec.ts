import { parseRange } from '../../src/core/storage/range';
import { UrlSigner } from '../../src/core/storage/url-signer';
import { assertKey, attachmentDisposition } from '../../src/core/storage/keys';
import { OffThreadDigest, stopDigestThread } from '../../src/core/storage/digest-thread';

import { createHash } from 'node:crypto';

afterAll(() => stopDigestThread());

describe('parseRange', () => {
  test.each([
    [undefined, 100, undefined],
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=90-500', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=-500', 100, { start: 0, end: 99 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=5-2', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=0-1,5-6', 100, undefined],
    ['items=0-1', 100, undefined],
  ])('%s of %d bytes', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});

describe('UrlSigner', () => {
  const signer = new UrlSigner('https://catalog.example');
  signer.useSecret('s'.repeat(40));
  const grant = {
    key: 'ds/file',
    filename: 'a b.h5',
    contentType: 'application/x-hdf5',
    expires: 2_000_000_000,
  };

  test('round trip, and any change to the URL voids it', () => {
    const url = new URL(signer.objectUrl(grant));
    // one path segment, as the OpenAPI document's /signed/objects/{key} describes it
    expect(url.pathname).toBe('/api/v2/signed/objects/ds%2Ffile');
    const q = Object.fromEntries(url.searchParams);
    expect(signer.verifyObject('ds/file', q, 0)).toEqual(grant);
    expect(signer.verifyObject('ds/other', q, 0)).toBeNull();
    expect(signer.verifyObject('ds/file', { ...q, name: 'x.h5' }, 0)).toBeNull();
    expect(signer.verifyObject('ds/file', { ...q, expires: '2000000001' }, 0)).toBeNull();
    expect(signer.verifyObject('ds/file', { ...q, signature: 'AAAA' }, 0)).toBeNull();
    expect(signer.verifyObject('ds/file', q, 2_000_000_001_000)).toBeNull();
    const other = new UrlSigner('https://catalog.example');
    other.useSecret('t'.repeat(40));
    expect(other.verifyObject('ds/file', q, 0)).toBeNull();
  });
});

test('object keys and content disposition', () => {
  expect(assertKey('abc/def-1.x')).toBe('abc/def-1.x');
  for (const bad of ['', '/a', 'a/', 'a/../b', '.x', 'a b']) expect(() => assertKey(bad)).toThrow();
  expect(attachmentDisposition('résumé "v2".txt')).toBe(
    `attachment; filename="r_sum_ _v2_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22v2%22.txt`,
  );
});

test('the digest carries its state across pieces (and batches)', async () => {
  const data = Buffer.concat([
    Buffer.from('The quick brown fox jumps over the lazy dog'),
    Buffer.alloc(3 * 1024 * 1024 + 5, 7),
  ]);
  const first = OffThreadDigest.start();
  await first.update(data.subarray(0, 10));
  const second = OffThreadDigest.start(await first.save());
  for (let i = 10; i < data.length; i += 700_000) await second.update(data.subarray(i, i + 700_000));
  const { sha256, crc32c } = await second.finish();
  expect(sha256).toBe(createHash('sha256').update(data).digest('hex'));
  const fox = OffThreadDigest.start();
  await fox.update(Buffer.from('The quick brown fox jumps over the lazy dog'));
  expect(Buffer.from((await fox.finish()).crc32c, 'base64').toString('hex')).toBe('22620404');
  expect(crc32c).toHaveLength(8);
});

test('a kept digest continues only in its process at the offset it reached', async () => {
  const data = Buffer.concat([
    Buffer.from('The quick brown fox jumps over the lazy dog'),
    Buffer.alloc(2 * 1024 * 1024 + 3, 9),
  ]);
  const first = (await OffThreadDigest.resume('upload-a', 0))!;
  await first.update(data.subarray(0, 100));
  expect(await first.save()).toBeNull(); // kept here, nothing for the row
  expect(await OffThreadDigest.resume('upload-a', 99)).toBeNull();
  expect(await OffThreadDigest.resume('upload-b', 100)).toBeNull();

  // a chunk that fails leaves the kept state where it was
  const failed = (await OffThreadDigest.resume('upload-a', 100))!;
  await failed.update(Buffer.alloc(1024 * 1024 + 1, 1)); // more than a batch: it reaches the thread
  failed.drop();
  const second = (await OffThreadDigest.resume('upload-a', 100))!;
  for (let i = 100; i < data.length; i += 700_000) await second.update(data.subarray(i, i + 700_000));
  const { sha256, crc32c } = await second.finish();
  expect(sha256).toBe(createHash('sha256').update(data).digest('hex'));
  const saved = OffThreadDigest.start();
  await saved.update(data);
  expect((await saved.finish()).crc32c).toBe(crc32c);
  expect(await OffThreadDigest.resume('upload-a', data.length)).toBeNull(); // finished: forgotten

  const third = (await OffThreadDigest.resume('upload-c', 0))!;
  await third.update(data.subarray(0, 10));
  await third.save();
  await stopDigestThread(); // a restart loses what the process kept
  expect(await OffThreadDigest.resume('upload-c', 10)).toBeNull();
});
