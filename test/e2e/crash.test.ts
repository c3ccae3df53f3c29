import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { ServiceProcesses, freePort, type Running } from '../support/process';
import { onServer } from '../support/pg-server';
import { seedEmbeddedDb } from '../support/embedded-template';

/**
 * kill -9 of the real service in the middle of every upload path and of an ingestion, then a
 * restart on the same data: within seconds no temporary file or orphan object is left, every
 * file record has its object, the resumable upload resumes where it stopped and no ingestion
 * request stays unfinished. The job lease and the upload lease are set far longer than the test
 * waits, so only the liveness of the dead process (core/db/liveness.ts) can free them.
 */
const ADMIN_KEY = 'crash-e2e-admin-key-0123456789abcdef';
const MiB = 1024 * 1024;
const processes = new ServiceProcesses();

let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-crash-'));
});
afterAll(() => {
  processes.killAll();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => T | Promise<T>, ms = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Files under `dir` (recursively), with sizes. */
function files(dir: string): { file: string; size: number }[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      return { file, size: fs.statSync(file).size };
    });
}

/** Sends `head` and `bytes` bytes of a body, then stalls (the request is never finished). */
function stalled(
  url: string,
  headers: Record<string, string>,
  head: Buffer,
  bytes: number,
): http.ClientRequest {
  const req = http.request(url, { method: headers['x-method'] ?? 'POST', headers });
  req.on('error', () => undefined);
  req.write(head);
  for (let sent = 0; sent < bytes; sent += MiB) req.write(Buffer.alloc(Math.min(MiB, bytes - sent), 7));
  return req;
}

test('kill -9 mid-upload (each path) and mid-ingestion, then restart', async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: String(port),
    ADMIN_API_KEY: ADMIN_KEY,
    JOB_QUEUE_PREFIX: `crash${process.pid}.`,
    JOB_POLL_INTERVAL_MS: '100',
    JOB_LEASE_SECONDS: '600',
    WORKER_CONCURRENCY: '1',
  };
  if (onServer) env.DATABASE_URL = process.env.DATABASE_URL!;
  // a migrated empty database: a first start is process.test.ts's subject, not this file's
  else seedEmbeddedDb(dataDir);
  const start = () => processes.run('main.js', [], env, 'catalog service listening');
  const auth = { authorization: `Bearer ${ADMIN_KEY}` };
  const json = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${base}/api/v2${p}`, {
      method,
      headers: { ...auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as any };
  };

  let first: Running = await start();
  const ds = (await json('POST', '/datasets', { dataset_name: 'crash' })).body.unique_id as string;

  // the resumable path: the first half stored, the second half cut off mid-chunk
  const size = 16 * MiB;
  const content = Buffer.alloc(size);
  for (let i = 0; i < size; i += 4096) content.writeUInt32BE(i, i);
  const sha = createHash('sha256').update(content).digest('hex');
  const initiated = await json('POST', `/datasets/${ds}/upload/initiate`, {
    filename: 'resumable.bin',
    size,
    sha256_hash: sha,
  });
  const uri = (initiated.body.resumable_uri as string).replace(/^https?:\/\/[^/]+/, base);
  const half = size / 2;
  const firstHalf = await fetch(uri, {
    method: 'PUT',
    headers: { 'content-range': `bytes 0-${half - 1}/${size}` },
    body: content.subarray(0, half),
    redirect: 'manual',
  });
  expect(firstHalf.status).toBe(308);
  const cutChunk = stalled(
    uri,
    {
      'x-method': 'PUT',
      'content-range': `bytes ${half}-${size - 1}/${size}`,
      'content-length': String(half),
    },
    Buffer.alloc(0),
    4 * MiB,
  );

  // a form upload and a GraphQL multipart upload, both cut off mid-body
  const boundary = 'crashboundary';
  const formHead = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const formReq = stalled(
    `${base}/api/v2/datasets/${ds}/files`,
    { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
    formHead,
    6 * MiB,
  );
  const operations = JSON.stringify({
    query:
      'mutation ($d: ID!, $f: Upload!, $g: Upload!) { a: addDatasetFile(dataset: $d, file: $f) { created } b: addDatasetFile(dataset: $d, file: $g) { created } }',
    variables: { d: ds, f: null, g: null },
  });
  // one file used twice is spooled to a temporary file; one used once streams to the store
  const gqlHead = (map: string, name: string) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${operations}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="map"\r\n\r\n${map}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="${name}"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n`,
    );
  const gqlHeaders = {
    ...auth,
    'apollo-require-preflight': 'true',
    'content-type': `multipart/form-data; boundary=${boundary}`,
    'transfer-encoding': 'chunked',
  };
  const gqlReq = stalled(
    `${base}/graphql`,
    gqlHeaders,
    gqlHead('{"0":["variables.f","variables.g"]}', 'cut-spooled.bin'),
    6 * MiB,
  );
  const gqlStreamed = stalled(
    `${base}/graphql`,
    gqlHeaders,
    gqlHead('{"0":["variables.f"]}', 'cut-streamed.bin'),
    6 * MiB,
  );

  // ingestion: large images, one job at a time
  const image = await sharp({ create: { width: 5000, height: 5000, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  const uploadedImages: string[] = [];
  for (let i = 0; i < 6; i++) {
    const form = new FormData();
    form.append('file', new Blob([image, Buffer.from([i])]), `image-${i}.png`);
    const res = await fetch(`${base}/api/v2/datasets/${ds}/files`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    expect(res.status).toBe(201);
    uploadedImages.push(((await res.json()) as { mfid: string }).mfid);
  }

  const objects = path.join(dataDir, 'objects');
  const scratchRoot = path.join(dataDir, 'tmp');
  await until(
    'the form and streamed GraphQL uploads writing their temporary files',
    () => files(path.join(objects, '.tmp')).filter((f) => f.size > 0).length >= 2,
  );
  await until('the GraphQL upload spooling', () =>
    files(scratchRoot).some((f) => f.file.includes('capacitor-') && f.size > 0),
  );
  await until('the cut chunk being written', () =>
    files(path.join(objects, '.multipart')).some((f) => f.size > half),
  );
  let seen = '';
  await until('an ingestion running', async () => {
    const list = await json('GET', `/ingestion_requests?dataset_id=${ds}&limit=100`);
    seen = JSON.stringify(list.body);
    return (list.body.items as { status: string }[]).some((r) => r.status === 'started');
  }).catch((err: Error) => {
    throw new Error(`${err.message}: ${seen}\n${first.output().slice(-3000)}`);
  });

  first.child.kill('SIGKILL');
  await first.exited;
  for (const r of [cutChunk, formReq, gqlReq, gqlStreamed]) r.destroy();
  expect(files(path.join(objects, '.tmp')).length).toBeGreaterThan(0);

  const second = await start();
  first = second;
  // nothing a dead process was writing is left
  expect(files(path.join(objects, '.tmp'))).toEqual([]);
  expect(files(scratchRoot)).toEqual([]);
  expect(fs.readdirSync(scratchRoot)).toEqual([expect.stringContaining(`~${second.child.pid}~`)]);

  // the resumable upload resumes where the store has it (the cut chunk did not count)
  const probe = await fetch(uri, {
    method: 'PUT',
    headers: { 'content-range': `bytes */${size}` },
    redirect: 'manual',
  });
  expect(probe.status).toBe(308);
  expect(probe.headers.get('range')).toBe(`bytes=0-${half - 1}`);
  const rest = await fetch(uri, {
    method: 'PUT',
    headers: { 'content-range': `bytes ${half}-${size - 1}/${size}` },
    body: content.subarray(half),
  });
  expect(rest.status).toBe(200);
  const completed = await json('POST', `/datasets/${ds}/upload/complete`, {
    upload_id: initiated.body.upload_id,
    sha256_hash: sha,
  });
  expect(completed.status).toBe(200);
  const download = await fetch(`${base}/api/v2/files/${completed.body.mfid}/download`, { headers: auth });
  expect(
    createHash('sha256')
      .update(Buffer.from(await download.arrayBuffer()))
      .digest('hex'),
  ).toBe(sha);

  // no ingestion request stays unfinished (the dead worker's job is taken again at once)
  const requests = await until('every ingestion request finished', async () => {
    const list = await json('GET', `/ingestion_requests?dataset_id=${ds}&limit=100`);
    const items = list.body.items as { status: string; file_id: string }[];
    return items.length >= uploadedImages.length &&
      items.every((r) => ['complete', 'failed'].includes(r.status))
      ? items
      : null;
  });
  expect(requests.filter((r) => r.status === 'complete').length).toBe(uploadedImages.length);

  // every object has its record and every stored record its object
  const listed = (await json('GET', `/datasets/${ds}/files`)).body as { mfid: string }[];
  const onDisk = files(path.join(objects, ds)).map((f) => path.basename(f.file));
  expect(onDisk.sort()).toEqual(listed.map((f) => f.mfid).sort());
  expect(listed.length).toBe(uploadedImages.length + 1);

  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
}, 600_000);
