import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { TestApp } from '../support/app';
import { rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';
import { STORE_KINDS, listKeys, startAppOn } from '../support/storage';
import { makeDataset, putChunk, resumableUpload, sha256 } from '../support/files';
import { stopDigestThread } from '../../src/core/storage/digest-thread';

const MiB = 1024 * 1024;

/** CRC32C written out independently of the service's implementation, for cross-checking. */
const CRC_TABLE = Array.from({ length: 256 }, (_, byte) => {
  let crc = byte;
  for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  return crc >>> 0;
});
function crc32c(data: Buffer): string {
  let crc = 0xffffffff;
  // a byte at a time from the table: the same sum as bit by bit, eight times fewer steps
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  const out = Buffer.alloc(4);
  out.writeUInt32BE((crc ^ 0xffffffff) >>> 0);
  return out.toString('base64');
}

/** Sends the first `sent` bytes of a chunk announced as `total` bytes long, then drops the connection. */
function interruptedPut(uri: string, range: string, data: Buffer, sent: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(uri, {
      method: 'PUT',
      headers: { 'content-range': range, 'content-length': String(data.length) },
    });
    req.on('error', () => resolve());
    req.write(data.subarray(0, sent), () => setTimeout(() => req.destroy(), 50));
    req.on('close', () => resolve());
  });
}

describe.each(STORE_KINDS)('resumable uploads on the %s store', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await startAppOn(kind);
    owner = await makeUser(t.app);
  });
  afterAll(() => t.close());

  const initiate = (ds: string, body: Record<string, unknown>, key = owner.key) =>
    rest(t.url, 'POST', `/datasets/${ds}/upload/initiate`, { key, body });
  const complete = (ds: string, body: Record<string, unknown>, key = owner.key) =>
    rest(t.url, 'POST', `/datasets/${ds}/upload/complete`, { key, body });
  const uri = (r: { body: { resumable_uri: string } }) =>
    r.body.resumable_uri.replace(t.app.config.publicBaseUrl, t.url);

  test.each([
    ['large chunks (one part each)', 12 * MiB, 6 * MiB],
    ['small chunks (held back until they fill a part on S3)', MiB + 17, 256 * 1024],
  ])(
    '%s: 308 with Range until the last chunk, then 200 with crc32c; complete gives the record',
    async (_n, size, chunk) => {
      const ds = await makeDataset(t, owner);
      const data = randomBytes(size);
      const init = await initiate(ds, {
        filename: 'run.h5',
        size,
        sha256_hash: sha256(data),
        ingestor: 'TifIngestor',
      });
      expect(init.status).toBe(200);
      expect(init.body).toMatchObject({ existing_file: null, chunk_size_hint: 64 * MiB });
      expect(init.body.resumable_uri).toMatch(/\/api\/v2\/upload-sessions\/[\w-]{43}$/);
      expect((await putChunk(uri(init), `bytes */${size}`, null)).range).toBeNull();
      for (let offset = 0; offset < size; offset += chunk) {
        const end = Math.min(offset + chunk, size) - 1;
        // the legacy client sends no key here; a stray Authorization header changes nothing
        const r = await putChunk(
          uri(init),
          `bytes ${offset}-${end}/${size}`,
          data.subarray(offset, end + 1),
          {
            authorization: 'Bearer not-a-key',
          },
        );
        if (end + 1 < size) {
          expect(r.status).toBe(308);
          expect(r.range).toBe(`bytes=0-${end}`);
        } else {
          expect(r.status).toBe(200);
          expect(r.body).toMatchObject({ crc32c: crc32c(data), size, sha256_hash: sha256(data) });
        }
      }
      const probe = await putChunk(uri(init), `bytes */${size}`, null);
      expect(probe.status).toBe(200);
      const done = await complete(ds, { upload_id: init.body.upload_id, sha256_hash: sha256(data) });
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({
        filename: 'run.h5',
        size,
        sha256_hash: sha256(data),
        storage_path: expect.stringMatching(new RegExp(`/${ds}/run\\.h5$`)),
      });
      const again = await complete(ds, { upload_id: init.body.upload_id, sha256_hash: sha256(data) });
      expect(again.body.mfid).toBe(done.body.mfid);

      const download = await fetch(`${t.url}/api/v2/files/${done.body.mfid}/download`, {
        headers: { authorization: `Bearer ${owner.key}` },
      });
      expect(Buffer.from(await download.arrayBuffer()).equals(data)).toBe(true);
      expect((await rest(t.url, 'GET', `/datasets/${ds}`, { key: owner.key })).body.size).toBe(size);

      const dedup = await initiate(ds, { filename: 'again.h5', size, sha256_hash: sha256(data) });
      expect(dedup.body).toMatchObject({ upload_id: null, existing_file: { mfid: done.body.mfid } });
      expect(typeof dedup.body.chunk_size_hint).toBe('number');
    },
  );

  test('an interrupted chunk is resumed from what the probe reports; overlaps are tolerated', async () => {
    const ds = await makeDataset(t, owner);
    const size = 12 * MiB;
    const data = randomBytes(size);
    const init = await initiate(ds, { filename: 'resume.bin', size });
    const chunk = 6 * MiB;
    expect((await putChunk(uri(init), `bytes 0-${chunk - 1}/${size}`, data.subarray(0, chunk))).status).toBe(
      308,
    );
    await interruptedPut(uri(init), `bytes ${chunk}-${size - 1}/${size}`, data.subarray(chunk), MiB);
    let probe = await putChunk(uri(init), `bytes */${size}`, null);
    expect(probe).toMatchObject({ status: 308, range: `bytes=0-${chunk - 1}` });

    const ahead = await putChunk(
      uri(init),
      `bytes ${chunk + 10}-${size - 1}/${size}`,
      data.subarray(chunk + 10),
    );
    expect(ahead).toMatchObject({ status: 416, range: `bytes=0-${chunk - 1}` });

    // resend from before what the server has: the overlap is skipped
    let last = { status: 409, body: undefined as unknown };
    for (let i = 0; i < 50 && last.status === 409; i++) {
      last = await putChunk(
        uri(init),
        `bytes ${chunk - 100}-${size - 1}/${size}`,
        data.subarray(chunk - 100),
      );
      if (last.status === 409) await new Promise((r) => setTimeout(r, 100));
    }
    expect(last).toMatchObject({ status: 200, body: { crc32c: crc32c(data) } });
    probe = await putChunk(uri(init), `bytes */${size}`, null);
    expect(probe.status).toBe(200);
    const done = await complete(ds, { upload_id: init.body.upload_id, sha256_hash: sha256(data) });
    expect(done.body.sha256_hash).toBe(sha256(data));
  });

  test('a wrong final SHA-256 is rejected and nothing is stored', async () => {
    const ds = await makeDataset(t, owner);
    const data = randomBytes(300_000);
    const init = await initiate(ds, { filename: 'x.bin', size: data.length });
    await putChunk(uri(init), `bytes 0-${data.length - 1}/${data.length}`, data);
    const bad = await complete(ds, { upload_id: init.body.upload_id, sha256_hash: sha256('something else') });
    expect(bad.status).toBe(422);
    expect(bad.body.fields[0].field).toBe('sha256_hash');
    expect(bad.body.detail).toMatch(/nothing was stored/);
    expect((await rest(t.url, 'GET', `/datasets/${ds}/files`, { key: owner.key })).body).toEqual([]);
    expect(await listKeys(t.app.services.file.store, `${ds}/`)).toEqual([]);
    const retry = await complete(ds, { upload_id: init.body.upload_id, sha256_hash: sha256(data) });
    expect(retry.status).toBe(404);
  });

  test('bytes that differ from the SHA-256 announced at initiation are rejected too', async () => {
    const ds = await makeDataset(t, owner);
    const data = randomBytes(1000);
    const init = await initiate(ds, {
      filename: 'x.bin',
      size: data.length,
      sha256_hash: sha256('announced'),
    });
    await putChunk(uri(init), `bytes 0-999/1000`, data);
    const bad = await complete(ds, { upload_id: init.body.upload_id, sha256_hash: sha256(data) });
    expect(bad.status).toBe(422);
    expect(await listKeys(t.app.services.file.store, `${ds}/`)).toEqual([]);
  });

  test('an empty file needs no PUT at all', async () => {
    const ds = await makeDataset(t, owner);
    const init = await initiate(ds, { filename: 'empty.txt', size: 0 });
    const done = await complete(ds, { upload_id: init.body.upload_id, sha256_hash: sha256('') });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ filename: 'empty.txt', size: 0, sha256_hash: sha256('') });
    const probe = await putChunk(uri(init), 'bytes */0', null);
    expect(probe).toMatchObject({ status: 200, body: { crc32c: 'AAAAAA==' } });
  });

  test('completion rules: incomplete 409, someone else 404, bad input 422', async () => {
    const ds = await makeDataset(t, owner);
    const init = await initiate(ds, { filename: 'x.bin', size: 10 });
    const early = await complete(ds, { upload_id: init.body.upload_id, sha256_hash: sha256('x') });
    expect(early.status).toBe(409);
    expect(early.body.detail).toMatch(/0 of 10 bytes/);
    const other = await makeUser(t.app);
    expect(
      (await complete(ds, { upload_id: init.body.upload_id, sha256_hash: sha256('x') }, other.key)).status,
    ).toBe(404);
    const bad = await complete(ds, { upload_id: 'nope' });
    expect(bad.status).toBe(422);
    expect(bad.body.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'sha256_hash',
      'upload_id',
    ]);
  });

  test('initiation: validation, permission, and the multipart path answers 501', async () => {
    const ds = await makeDataset(t, owner);
    const stranger = await makeUser(t.app);
    expect((await initiate(ds, { filename: 'x', size: 1 }, stranger.key)).status).toBe(404);
    const bad = await initiate(ds, { filename: '../', size: -1, sha256_hash: 'zz' });
    expect(bad.status).toBe(422);
    expect(bad.body.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'filename',
      'sha256_hash',
      'size',
    ]);
    const multipart = await rest(t.url, 'POST', `/datasets/${ds}/upload/initiate/multipart`, {
      key: owner.key,
      body: { filename: 'x', size: 1, sha256_hash: sha256('x') },
    });
    expect(multipart.status).toBe(501);
    expect(multipart.body.detail).toMatch(/resumable/);
  });

  test('session URIs: unknown and expired tokens are 404, a busy session 409, a wrong total 422', async () => {
    const ds = await makeDataset(t, owner);
    const init = await initiate(ds, { filename: 'x.bin', size: 10 });
    const unknown = uri(init).replace(/[\w-]{43}$/, 'A'.repeat(43));
    expect((await putChunk(unknown, 'bytes */10', null)).status).toBe(404);
    expect((await putChunk(uri(init), 'bytes 0-4/11', Buffer.from('01234'))).status).toBe(422);
    expect((await putChunk(uri(init), 'bytes 0-4', Buffer.from('01234'))).status).toBe(422);

    const em = t.app.orm.em.fork();
    const lease = "update upload_session set lease_until = now() + interval '1 minute' where unique_id = ?";
    await em.getConnection().execute(lease, [init.body.upload_id]);
    expect((await putChunk(uri(init), 'bytes 0-9/10', Buffer.from('0123456789'))).status).toBe(409);
    await em
      .getConnection()
      .execute("update upload_session set expires_at = now() - interval '1 second' where unique_id = ?", [
        init.body.upload_id,
      ]);
    expect((await putChunk(uri(init), 'bytes */10', null)).status).toBe(404);
  });

  test('expired sessions are swept with the bytes they left behind', async () => {
    const ds = await makeDataset(t, owner);
    const size = 6 * MiB + 5;
    const init = await initiate(ds, { filename: 'abandoned.bin', size });
    expect((await putChunk(uri(init), `bytes 0-${6 * MiB - 1}/${size}`, randomBytes(6 * MiB))).status).toBe(
      308,
    );
    const em = t.app.orm.em.fork();
    await em
      .getConnection()
      .execute("update upload_session set expires_at = now() - interval '1 second' where unique_id = ?", [
        init.body.upload_id,
      ]);
    expect(await t.app.services.upload.sweepExpired(em, 1000)).toBeGreaterThanOrEqual(1);
    expect(await listKeys(t.app.services.file.store, `${ds}/`)).toEqual([]);
    if (kind === 'filesystem') expect(await listKeys(t.app.services.file.store, '.')).toEqual([]);
  });

  test('a restart between chunks: the digest is rebuilt from the staged bytes once (filesystem) or loaded from the row (S3)', async () => {
    const ds = await makeDataset(t, owner);
    const chunk = 6 * MiB;
    const size = 3 * chunk + 11;
    const data = randomBytes(size);
    const init = await initiate(ds, { filename: 'restart.bin', size, sha256_hash: sha256(data) });
    const em = t.app.orm.em.fork();
    const states = async () => {
      const [row] = await em
        .getConnection()
        .execute<{ sha: boolean; crc: boolean }[]>(
          'select sha256_state is not null as sha, crc32c_state is not null as crc from upload_session where unique_id = ?',
          [init.body.upload_id],
        );
      return row;
    };
    const put = (from: number) => {
      const end = Math.min(from + chunk, size) - 1;
      return putChunk(uri(init), `bytes ${from}-${end}/${size}`, data.subarray(from, end + 1));
    };
    expect((await put(0)).status).toBe(308);
    // the filesystem store keeps the state in this process; S3 keeps it in the row
    const saved = kind === 's3';
    expect(await states()).toEqual({ sha: saved, crc: saved });
    expect((await put(chunk)).status).toBe(308);
    expect(await states()).toEqual({ sha: saved, crc: saved });

    await stopDigestThread(); // the kept states are gone, as after a restart or on another replica
    expect((await put(2 * chunk)).status).toBe(308);
    expect(await states()).toEqual({ sha: true, crc: true }); // rebuilt once, kept in the row since
    await stopDigestThread();
    const last = await put(3 * chunk);
    expect(last).toMatchObject({ status: 200, body: { crc32c: crc32c(data), sha256_hash: sha256(data) } });
    const done = await complete(ds, { upload_id: init.body.upload_id, sha256_hash: sha256(data) });
    expect(done.body.sha256_hash).toBe(sha256(data));
  });

  test('the helper flow of the legacy client works end to end', async () => {
    const ds = await makeDataset(t, owner);
    const data = randomBytes(8192);
    const { complete: done, finalChunk } = await resumableUpload(t, owner.key, ds, 'tmp.bin', data);
    expect(finalChunk?.body.crc32c).toBe(crc32c(data));
    expect(done?.body.mfid).toMatch(/^[0-9a-z]{26}$/);
  });
});
