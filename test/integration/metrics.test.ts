import { startTestApp, type TestApp } from '../support/app';
import { makeUser, type TestUser } from '../support/factories';
import { newDataset } from '../support/catalog';
import { gql, rest } from '../support/http';
import { gqlUpload } from '../support/files';
import { png } from '../support/fixtures';
import { drainJobs } from '../support/jobs';
import { parsePrometheus, samples, total, type Family } from '../support/prometheus';

/** `/metrics`: Prometheus text with the HTTP, GraphQL, pool, queue, ingestion and upload families. */
let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  owner = await makeUser(t.app);
});
afterAll(() => t?.close());

async function scrape(url = t.url, headers: Record<string, string> = {}): Promise<Map<string, Family>> {
  const res = await fetch(`${url}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheus(await res.text());
}

test('requests, operations, the pool, the queue, ingestion and uploads are measured', async () => {
  const before = await scrape();
  const datasetId = await newDataset(t.url, owner.key, { dataset_name: 'metrics' });
  expect((await rest(t.url, 'GET', `/datasets/${datasetId}`, { key: owner.key })).status).toBe(200);
  expect((await rest(t.url, 'GET', '/datasets/01ZZZZZZZZZZZZZZZZZZZZZZZZ', { key: owner.key })).status).toBe(
    404,
  );
  expect((await rest(t.url, 'GET', '/no/such/route', { key: owner.key })).status).toBe(404);
  const named = await gql(t.url, owner.key, 'query MetricsProbe { me { user { uniqueId } } }');
  expect(named.errors).toBeUndefined();
  const refused = await gql(t.url, null, 'query Anonymous { me { user { uniqueId } } }');
  expect(refused.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  const image = await png(40, 30);
  const upload = await gqlUpload(t.url, owner.key, datasetId, 'probe.png', image);
  expect(upload.status).toBe(200);

  const queued = await scrape();
  const queue = [...samples(queued, 'catalog_job_queue_depth', { status: 'queued' })].find((s) =>
    s.labels.queue.endsWith('ingestion'),
  );
  expect(queue?.value).toBeGreaterThanOrEqual(1);
  expect(
    total(queued, 'catalog_job_oldest_age_seconds', { queue: queue!.labels.queue }),
  ).toBeGreaterThanOrEqual(0);

  expect(await drainJobs(t)).toBeGreaterThanOrEqual(1);
  const after = await scrape();
  const delta = (family: string, labels: Record<string, string>, suffix = '') =>
    total(after, family, labels, suffix) - total(before, family, labels, suffix);

  // HTTP: by route template, never the raw path
  const route = `/api/v2/datasets/:id`;
  expect(delta('catalog_http_requests_total', { method: 'GET', route, status: '200' })).toBe(1);
  expect(delta('catalog_http_requests_total', { method: 'GET', route, status: '404' })).toBe(1);
  expect(
    delta('catalog_http_requests_total', { method: 'POST', route: '/api/v2/datasets', status: '201' }),
  ).toBe(1);
  expect(
    delta('catalog_http_requests_total', { route: 'unmatched' }) +
      delta('catalog_http_requests_total', { route: '/api/v2/*' }),
  ).toBeGreaterThanOrEqual(1);
  expect(samples(after, 'catalog_http_requests_total').some((s) => s.labels.route.includes(datasetId))).toBe(
    false,
  );
  expect(
    delta('catalog_http_request_duration_seconds', { method: 'GET', route, status: '200' }, '_count'),
  ).toBe(1);
  expect(
    samples(after, 'catalog_http_request_duration_seconds', { route, le: '+Inf' }, '_bucket').length,
  ).toBeGreaterThan(0);

  // GraphQL: by operation name, type and outcome
  expect(
    delta('catalog_graphql_operations_total', { operation: 'MetricsProbe', type: 'query', outcome: 'ok' }),
  ).toBe(1);
  expect(
    delta('catalog_graphql_operations_total', { operation: 'Anonymous', outcome: 'unauthenticated' }),
  ).toBe(1);
  expect(delta('catalog_graphql_operation_duration_seconds', { operation: 'MetricsProbe' }, '_count')).toBe(
    1,
  );

  // the database pool
  expect(total(after, 'catalog_db_pool_size_max')).toBeGreaterThanOrEqual(4);
  expect(total(after, 'catalog_db_pool_waiting')).toBeGreaterThanOrEqual(0);
  expect(after.get('catalog_db_pool_connections_in_use')?.type).toBe('gauge');

  // jobs and ingestion by ingestor and outcome
  expect(delta('catalog_jobs_total', { queue: 'ingestion', outcome: 'completed' })).toBeGreaterThanOrEqual(1);
  expect(delta('catalog_ingestions_total', { ingestor: 'ImageIngestor', outcome: 'complete' })).toBe(1);
  expect(delta('catalog_ingestion_duration_seconds', { ingestor: 'ImageIngestor' }, '_count')).toBe(1);

  // uploads: exactly the bytes stored
  expect(delta('catalog_upload_bytes_total', { store: 'filesystem' })).toBe(image.length);
  expect(delta('catalog_stored_objects_total', { store: 'filesystem' })).toBe(1);

  // process figures
  expect(after.has('catalog_process_resident_memory_bytes')).toBe(true);
  expect(after.has('catalog_nodejs_eventloop_lag_seconds')).toBe(true);
});

test('with METRICS_TOKEN, /metrics answers only that bearer token (API keys do not open it)', async () => {
  const token = 'scrape-token-0123456789';
  const guarded = await startTestApp({ METRICS_TOKEN: token });
  try {
    const admin = await makeUser(guarded.app, { admin: true });
    expect((await fetch(`${guarded.url}/metrics`)).status).toBe(401);
    const withKey = await fetch(`${guarded.url}/metrics`, {
      headers: { authorization: `Bearer ${admin.key}` },
    });
    expect(withKey.status).toBe(401);
    const families = await scrape(guarded.url, { authorization: `Bearer ${token}` });
    expect(families.has('catalog_http_requests_total')).toBe(true);
  } finally {
    await guarded.close();
  }
});
