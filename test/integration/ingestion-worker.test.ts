import { randomBytes } from 'node:crypto';
import type { TestApp } from '../support/app';
import { startTestApp } from '../support/app';
import { rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';
import { formUpload, makeDataset } from '../support/files';
import { drainJobs } from '../support/jobs';
import { rawQuery } from '../../src/core/db/raw';
import { JobWorker } from '../../src/core/jobs/worker';
import { JobQueue, type ClaimedJob } from '../../src/core/jobs/queue';
import { createLogger } from '../../src/core/logger';
import { INGESTION_QUEUE } from '../../src/modules/ingestion/ingestion.service';
import * as fx from '../support/fixtures';

let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await startTestApp({ JOB_RETRY_BASE_MS: '0', JOB_MAX_ATTEMPTS: '3' });
  owner = await makeUser(t.app);
});
afterAll(() => t.close());

const em = () => t.app.orm.em.fork();
const queue = () => t.app.services.jobs;

async function upload(ds: string, name: string, data: Buffer | string): Promise<string> {
  const r = await formUpload(t.url, owner.key, ds, [{ name, data: Buffer.from(data) }]);
  expect(r.status).toBe(201);
  return r.body.mfid as string;
}

async function requestOf(file: string): Promise<Record<string, any>> {
  const r = await rest(t.url, 'GET', '/ingestion_requests', { key: owner.key, query: { file_id: file } });
  return r.body.items[0];
}

/** A worker of the same app with its own handlers (the generic queue, apart from ingestion). */
function worker(
  handlers: Record<string, { run: (job: ClaimedJob) => Promise<void>; dead?: (reason: string) => void }>,
) {
  const w = new JobWorker({
    orm: t.app.orm,
    queue: queue(),
    log: createLogger('silent'),
    concurrency: 2,
    pollIntervalMs: 50,
    leaseMs: 60_000,
  });
  for (const [name, h] of Object.entries(handlers)) {
    w.register(name, {
      run: (job) => h.run(job),
      deadLetter: (_job, reason) => Promise.resolve(h.dead?.(reason)),
    });
  }
  return w;
}

test('a worker that dies mid-job: the lease expires, the job is retried and the request completes once', async () => {
  const ds = await makeDataset(t, owner);
  const file = await upload(ds, 'photo.png', await fx.png());
  // a worker claims the job, marks the request started, and dies (its lease runs out at once)
  const [job] = await queue().claim(em(), [INGESTION_QUEUE], 1, 'crashed-worker', 1);
  expect(job.payload).toMatchObject({ dataset_mfid: ds });
  await rawQuery(em(), `update ingestion_request set status = 'started', time_started = now() where id = ?`, [
    job.payload.request_id,
  ]);
  await new Promise((r) => setTimeout(r, 20));

  expect(await drainJobs(t)).toBe(1);
  const request = await requestOf(file);
  expect(request).toMatchObject({ status: 'complete', ingestor_used: 'ImageIngestor' });
  const thumbs = await rest(t.url, 'GET', `/datasets/${ds}/thumbnails`, { key: owner.key });
  expect(thumbs.body).toHaveLength(1);
  expect(await rawQuery(em(), 'select id from job where id = ?', [job.id])).toEqual([]);
  // nothing left to do: a second drain runs nothing
  expect(await drainJobs(t)).toBe(0);
});

test('a job whose workers keep dying ends `failed` with the reason after the last attempt', async () => {
  const ds = await makeDataset(t, owner);
  const file = await upload(ds, 'doc.json', fx.JSON_DOC);
  for (let attempt = 1; attempt <= 3; attempt++) {
    const [job] = await queue().claim(em(), [INGESTION_QUEUE], 1, `crashed-${attempt}`, 1);
    expect(job.attempts).toBe(attempt);
    await new Promise((r) => setTimeout(r, 20));
  }
  await drainJobs(t);
  const request = await requestOf(file);
  expect(request.status).toBe('failed');
  expect(request.error_message).toMatch(/gave up after 3 attempt\(s\): the worker running it stopped/);
  const dead = await rawQuery<{ status: string; attempts: number }>(
    em(),
    // by dataset too: test files share the job table (each app prefixes its queues), and other
    // queues' `request_id`s are of their own id spaces
    `select status, attempts from job where payload ->> 'request_id' = ? and payload ->> 'dataset_mfid' = ?`,
    [String(request.id), ds],
  );
  expect(dead).toEqual([{ status: 'failed', attempts: 4 }]);
});

test('a poisoned file ends `failed` with a reason and the worker keeps going', async () => {
  const ds = await makeDataset(t, owner);
  const bad = await upload(ds, 'broken.png', randomBytes(2048));
  const badH5 = await upload(
    ds,
    'broken.h5',
    Buffer.concat([Buffer.from('\x89HDF\r\n\x1a\n', 'latin1'), randomBytes(4096)]),
  );
  const good = await upload(ds, 'table.csv', fx.CSV);
  await drainJobs(t);
  const broken = await requestOf(bad);
  expect(broken.status).toBe('failed');
  expect(broken.error_message).toMatch(/^ImageIngestor: .+/);
  const brokenH5 = await requestOf(badH5);
  expect(brokenH5.status).toBe('failed');
  expect(brokenH5.error_message).toMatch(/^H5Ingestor: not a readable HDF5 file/);
  expect((await requestOf(good)).status).toBe('complete');
  // the file of a failed ingestion counts as processed (see docs/ingestion.md)
  expect((await rest(t.url, 'GET', `/files/${bad}`, { key: owner.key })).body.storage_path).toMatch(
    /broken\.png$/,
  );
});

test('a file deleted before its turn ends `file not found`', async () => {
  const ds = await makeDataset(t, owner);
  const file = await upload(ds, 'gone.csv', fx.CSV);
  expect((await rest(t.url, 'DELETE', `/files/${file}`, { key: owner.key })).status).toBe(200);
  await drainJobs(t);
  expect(await requestOf(file)).toMatchObject({
    status: 'file not found',
    error_message: expect.stringMatching(/no longer exists/),
  });
});

test('the queue: retries with backoff, then the dead letter', async () => {
  const name = `flaky-${randomBytes(3).toString('hex')}`;
  let calls = 0;
  const dead: string[] = [];
  const w = worker({
    [name]: {
      run: (job) => {
        calls++;
        if (job.payload.fail === 'always' || job.attempts < 2)
          return Promise.reject(new Error(`boom ${job.attempts}`));
        return Promise.resolve();
      },
      dead: (reason) => dead.push(reason),
    },
  });
  await queue().enqueue(em(), name, { fail: 'once' });
  await queue().enqueue(em(), name, { fail: 'always' });
  await w.drain();
  expect(calls).toBe(2 + 3);
  expect(dead).toEqual(['gave up after 3 attempt(s): boom 3']);
  const left = await rawQuery<{ status: string; attempts: number; last_error: string }>(
    em(),
    'select status, attempts, last_error from job where queue = ?',
    [`${t.app.config.jobs.queuePrefix}${name}`],
  );
  expect(left).toEqual([{ status: 'failed', attempts: 3, last_error: 'boom 3' }]);

  // backoff: a failed attempt is not due again before base × 2^(attempt − 1)
  const slow = `slow-${randomBytes(3).toString('hex')}`;
  const backoff = new JobQueue({
    prefix: t.app.config.jobs.queuePrefix,
    maxAttempts: 3,
    retryBaseMs: 60_000,
  });
  await backoff.enqueue(em(), slow, {});
  const [claimed] = await backoff.claim(em(), [slow], 1, 'w', 60_000);
  await backoff.retryLater(em(), claimed, 'w', 'transient');
  expect(await backoff.claim(em(), [slow], 1, 'w', 60_000)).toEqual([]);
  const [row] = await rawQuery<{ wait: number }>(
    em(),
    'select extract(epoch from run_at - now())::float as wait from job where id = ?',
    [claimed.id],
  );
  expect(row.wait).toBeGreaterThan(55);
});

test('concurrent workers take each job exactly once (SKIP LOCKED)', async () => {
  const name = `count-${randomBytes(3).toString('hex')}`;
  const seen: number[] = [];
  const handler = {
    [name]: {
      run: async (job: ClaimedJob) => {
        seen.push(Number(job.payload.n));
        await new Promise((r) => setTimeout(r, 5));
      },
    },
  };
  for (let n = 0; n < 30; n++) await queue().enqueue(em(), name, { n });
  await Promise.all([worker(handler).drain(), worker(handler).drain(), worker(handler).drain()]);
  expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, n) => n));
});

test('stopping hands running jobs back to the queue without counting the attempt', async () => {
  const name = `stop-${randomBytes(3).toString('hex')}`;
  let release: () => void = () => undefined;
  const w = worker({ [name]: { run: () => new Promise<void>((r) => (release = r)) } });
  const id = await queue().enqueue(em(), name, {});
  w.start();
  for (let i = 0; i < 100; i++) {
    const [row] = await rawQuery<{ status: string }>(em(), 'select status from job where id = ?', [id]);
    if (row.status === 'running') break;
    await new Promise((r) => setTimeout(r, 20));
  }
  await w.stop(50);
  const [row] = await rawQuery<{ status: string; attempts: number; locked_by: string | null }>(
    em(),
    'select status, attempts, locked_by from job where id = ?',
    [id],
  );
  expect(row).toEqual({ status: 'queued', attempts: 0, locked_by: null });
  release();
});

test('a running worker is woken by an enqueue in this process at once (no poll wait)', async () => {
  const name = `wake-${randomBytes(3).toString('hex')}`;
  let done: (v: number) => void = () => undefined;
  const finished = new Promise<number>((r) => (done = r));
  const w = new JobWorker({
    orm: t.app.orm,
    queue: queue(),
    log: createLogger('silent'),
    concurrency: 1,
    pollIntervalMs: 60_000,
    leaseMs: 60_000,
  });
  w.register(name, { run: () => Promise.resolve(done(Date.now())), deadLetter: () => Promise.resolve() });
  w.start();
  await new Promise((r) => setTimeout(r, 100));
  const at = Date.now();
  await em().transactional((tx) => queue().enqueue(tx, name, {}));
  expect((await finished) - at).toBeLessThan(5000);
  await w.stop(1000);
});
