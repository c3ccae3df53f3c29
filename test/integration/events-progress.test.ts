import { startTestApp, type TestApp } from '../support/app';
import { makeUser, type TestUser } from '../support/factories';
import { formUpload } from '../support/files';
import { gql, rest } from '../support/http';
import { drainJobs } from '../support/jobs';
import { rawQuery } from '../../src/core/db/raw';

/**
 * Ingestion progress: a large file's reading is reported on the request (GraphQL bytesRead /
 * bytesTotal) and as `ingestion.progress` events, throttled per 5 % of the file. The interval is
 * 0 here so that every 5 % step is reported however fast the machine reads.
 */
let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await startTestApp({
    INGEST_PROGRESS_MIN_BYTES: String(1024 * 1024),
    INGEST_PROGRESS_INTERVAL_MS: '0',
  });
  owner = await makeUser(t.app);
});
afterAll(() => t.close());

/** A CSV table of about `bytes` bytes. */
function table(bytes: number): Buffer {
  const lines = ['time,voltage,current'];
  let size = lines[0].length + 1;
  for (let i = 0; size < bytes; i++) {
    const line = `${i},${(Math.sin(i / 100) * 5).toFixed(6)},${(i % 977) / 10}`;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(lines.join('\n') + '\n');
}

async function eventsOf(dataset: string): Promise<{ type: string; payload: Record<string, unknown> }[]> {
  return rawQuery(
    t.app.orm.em.fork(),
    `select type, payload from domain_event where resource_id = ? and type like 'ingestion.%' order by id`,
    [dataset],
  );
}

async function upload(name: string, data: Buffer): Promise<string> {
  const ds = await rest(t.url, 'POST', '/datasets', { key: owner.key, body: { dataset_name: name } });
  expect(ds.status).toBe(201);
  const up = await formUpload(t.url, owner.key, ds.body.unique_id as string, [{ name, data }]);
  expect(up.status).toBe(201);
  await drainJobs(t);
  return ds.body.unique_id as string;
}

test('a file of a few MiB reports its reading in steps of at least 5 %, before it completes', async () => {
  const data = table(4 * 1024 * 1024);
  const dataset = await upload('progress.csv', data);
  const events = await eventsOf(dataset);
  const types = events.map((e) => e.type);
  expect(types[0]).toBe('ingestion.requested');
  expect(types[1]).toBe('ingestion.started');
  expect(types[types.length - 1]).toBe('ingestion.complete');
  const progress = events.filter((e) => e.type === 'ingestion.progress').map((e) => e.payload);
  // every 5 % at most once, and the end: between 2 and 21 reports for one pass
  expect(progress.length).toBeGreaterThanOrEqual(2);
  expect(progress.length).toBeLessThanOrEqual(21);
  expect(types.indexOf('ingestion.progress')).toBe(2);
  expect(types.lastIndexOf('ingestion.progress')).toBe(types.length - 2);
  const read = progress.map((p) => p.bytes_read as number);
  // the end of the file is always reported, however close the report before it
  for (let i = 1; i < read.length - 1; i++)
    expect(read[i] - read[i - 1]).toBeGreaterThanOrEqual(data.length * 0.05);
  expect(read[read.length - 1]).toBe(data.length);
  expect(progress.every((p) => p.bytes_total === data.length)).toBe(true);
  expect(progress[progress.length - 1].percent).toBe(100);

  // the status shows where the reading got (here: all of it)
  const status = await gql(
    t.url,
    owner.key,
    `query($id: ID!) { dataset(id: $id) { uniqueId } ingestionRequests(datasetId: $id) { nodes { status bytesRead bytesTotal } } }`,
    { id: dataset },
  );
  expect(status.errors).toBeUndefined();
  expect(status.data.ingestionRequests.nodes).toEqual([
    { status: 'complete', bytesRead: data.length, bytesTotal: data.length },
  ]);
});

test('a small file reports no progress', async () => {
  const dataset = await upload('small.csv', table(64 * 1024));
  const types = (await eventsOf(dataset)).map((e) => e.type);
  expect(types).toEqual(['ingestion.requested', 'ingestion.started', 'ingestion.complete']);
});
