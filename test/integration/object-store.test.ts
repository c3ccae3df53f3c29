import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ObjectStore } from '../../src/core/storage/object-store';
import { FileSystemObjectStore } from '../../src/core/storage/fs-store';
import { S3ObjectStore } from '../../src/core/storage/s3-store';
import { startLocalS3, type LocalS3 } from '../support/s3';
import { listKeys } from '../support/storage';

const MiB = 1024 * 1024;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function text(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** A stream that yields `data` in small pieces, then fails (a client that went away). */
function failingAfter(data: Buffer): Readable {
  return new Readable({
    read() {
      this.push(data);
      this.destroy(new Error('client went away'));
    },
  });
}

interface Fixture {
  store: ObjectStore;
  close(): Promise<void>;
}

const fixtures: Record<string, () => Promise<Fixture>> = {
  filesystem: () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fs-store-'));
    return Promise.resolve({
      store: new FileSystemObjectStore(dir),
      close: () => Promise.resolve(fs.rmSync(dir, { recursive: true, force: true })),
    });
  },
  s3: async () => {
    const s3: LocalS3 = await startLocalS3('contract');
    const store = new S3ObjectStore({
      bucket: 'contract',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
    return { store, close: () => s3.close() };
  },
};

describe.each(Object.keys(fixtures))('ObjectStore contract: %s', (kind) => {
  let f: Fixture;
  let store: ObjectStore;
  beforeAll(async () => {
    f = await fixtures[kind]();
    store = f.store;
    await store.init();
    await store.init(); // idempotent
  });
  afterAll(() => f.close());

  test('put streams, reporting size and SHA-256; get, head and ranges read it back', async () => {
    // large enough to go to S3 as a multipart upload
    const data = randomBytes(17 * MiB + 123);
    const stored = await store.put('ds1/file1', Readable.from([data.subarray(0, MiB), data.subarray(MiB)]), {
      contentType: 'application/x-test',
    });
    expect(stored).toEqual({ size: data.length, sha256: sha(data) });
    expect((await store.head('ds1/file1'))?.size).toBe(data.length);
    const whole = await store.get('ds1/file1');
    expect(whole?.size).toBe(data.length);
    expect((await text(whole!.body)).equals(data)).toBe(true);
    const part = await store.get('ds1/file1', { start: 10, end: 1009 });
    expect(part?.size).toBe(data.length);
    expect((await text(part!.body)).equals(data.subarray(10, 1010))).toBe(true);
  });

  test('an empty object', async () => {
    const stored = await store.put('ds1/empty', Readable.from([]));
    expect(stored.size).toBe(0);
    expect(stored.sha256).toBe(sha(Buffer.alloc(0)));
    expect((await store.head('ds1/empty'))?.size).toBe(0);
  });

  test('missing objects: head and get answer null, delete is a no-op', async () => {
    expect(await store.head('ds1/nothing')).toBeNull();
    expect(await store.get('ds1/nothing')).toBeNull();
    await expect(store.delete('ds1/nothing')).resolves.toBeUndefined();
  });

  test('delete removes the object', async () => {
    await store.put('ds2/gone', Readable.from([Buffer.from('x')]));
    await store.delete('ds2/gone');
    expect(await store.head('ds2/gone')).toBeNull();
  });

  test('a put over the size limit fails with PAYLOAD_TOO_LARGE and leaves nothing', async () => {
    const data = randomBytes(12 * MiB);
    await expect(store.put('ds3/big', Readable.from([data]), { maxBytes: 10 * MiB })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect(await store.head('ds3/big')).toBeNull();
    expect(await listKeys(store, 'ds3/')).toEqual([]);
  });

  test('a put whose source fails leaves nothing', async () => {
    await expect(store.put('ds3/broken', failingAfter(randomBytes(1024)))).rejects.toThrow(
      'client went away',
    );
    expect(await store.head('ds3/broken')).toBeNull();
    expect(await listKeys(store, 'ds3/')).toEqual([]);
  });

  test('a put whose source fails after several parts have gone out leaves nothing', async () => {
    let sent = 0;
    const source = new Readable({
      read() {
        if (sent >= 20 * MiB) {
          this.destroy(new Error('client went away'));
          return;
        }
        sent += MiB;
        this.push(randomBytes(MiB));
      },
    });
    await expect(store.put('ds3/cut', source)).rejects.toThrow('client went away');
    expect(await store.head('ds3/cut')).toBeNull();
    expect(await listKeys(store, 'ds3/')).toEqual([]);
  });

  test('keys that could escape the store are refused', async () => {
    for (const key of ['../x', 'a/../../b', '/abs', '.tmp/x', 'a//b', '']) {
      await expect(store.put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow('invalid object key');
    }
  });

  test('multipart: parts written in order assemble the object', async () => {
    const size = kind === 's3' ? 11 * MiB : 3 * MiB;
    const data = randomBytes(size);
    const cut = kind === 's3' ? [0, 5 * MiB, 10 * MiB, size] : [0, MiB, 2 * MiB, size];
    const id = await store.createMultipart('ds4/multi');
    const parts = [];
    for (let i = 0; i < 3; i++) {
      const body = data.subarray(cut[i], cut[i + 1]);
      parts.push(
        await store.uploadPart('ds4/multi', id, {
          partNumber: i + 1,
          offset: cut[i],
          body: Readable.from([body]),
          length: body.length,
        }),
      );
    }
    expect(await store.head('ds4/multi')).toBeNull(); // nothing visible before completion
    await store.completeMultipart('ds4/multi', id, parts, size);
    const read = await store.get('ds4/multi');
    expect((await text(read!.body)).equals(data)).toBe(true);
  });

  test('multipart: a part may be rewritten (a resent chunk) before completion', async () => {
    const id = await store.createMultipart('ds4/rewrite');
    const first = Buffer.from('first version');
    await store.uploadPart('ds4/rewrite', id, {
      partNumber: 1,
      offset: 0,
      body: Readable.from([first]),
      length: 13,
    });
    const again = Buffer.from('final version');
    const ref = await store.uploadPart('ds4/rewrite', id, {
      partNumber: 1,
      offset: 0,
      body: Readable.from([again]),
      length: 13,
    });
    await store.completeMultipart('ds4/rewrite', id, [ref], 13);
    expect((await text((await store.get('ds4/rewrite'))!.body)).toString()).toBe('final version');
  });

  test('multipart: abort leaves no object', async () => {
    const id = await store.createMultipart('ds4/aborted');
    await store.uploadPart('ds4/aborted', id, {
      partNumber: 1,
      offset: 0,
      body: Readable.from([Buffer.from('x')]),
      length: 1,
    });
    await store.abortMultipart('ds4/aborted', id);
    expect(await store.head('ds4/aborted')).toBeNull();
  });

  test('presigned URLs: S3 signs its own (GET with Range works); the filesystem store has none', async () => {
    await store.put('ds5/signed', Readable.from([Buffer.from('0123456789')]));
    const url = await store.presignedUrl('ds5/signed', { expiresInSeconds: 60, filename: 'résumé.txt' });
    if (kind === 'filesystem') {
      expect(url).toBeNull();
      return;
    }
    const res = await fetch(url!, { headers: { range: 'bytes=2-4' } });
    expect(res.status).toBe(206);
    expect(await res.text()).toBe('234');
  });
});
