import { randomBytes } from 'node:crypto';
import type { TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { grant, makeUser, type TestUser } from '../support/factories';
import { STORE_KINDS, startAppOn } from '../support/storage';
import { formUpload, makeDataset, resumableUpload, userWith } from '../support/files';
import { drainJobs } from '../support/jobs';
import * as fx from '../support/fixtures';
import { rawQuery } from '../../src/core/db/raw';

const FINAL = ['complete', 'failed', 'not supported', 'file not found'];

async function upload(t: TestApp, key: string, ds: string, name: string, data: Buffer | string, query = '') {
  const r = await formUpload(t.url, key, ds, [{ name, data: Buffer.from(data) }], query);
  if (r.status !== 201) throw new Error(`upload of ${name}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.mfid as string;
}

async function requestsOf(t: TestApp, key: string, query: Record<string, string>) {
  const r = await rest(t.url, 'GET', '/ingestion_requests', { key, query });
  expect(r.status).toBe(200);
  return r.body as { items: Record<string, any>[]; total: number };
}

async function dataset(t: TestApp, key: string, id: string) {
  return (await rest(t.url, 'GET', `/datasets/${id}`, { key, query: { include_metadata: 'true' } })).body;
}

async function thumbnails(t: TestApp, key: string, id: string) {
  return (await rest(t.url, 'GET', `/datasets/${id}/thumbnails`, { key })).body as Record<string, any>[];
}

describe.each(STORE_KINDS)('ingestion end to end on the %s store', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await startAppOn(kind);
    owner = await makeUser(t.app);
  });
  afterAll(() => t.close());

  const cases: [string, () => Promise<Buffer | string> | Buffer | string, string, string[], boolean][] = [
    ['photo.png', () => fx.png(), 'ImageIngestor', ['image'], true],
    ['frame.tif', fx.tiff16, 'TifIngestor', ['tiff', 'image'], true],
    ['raman.h5', () => fx.scopeFoundryH5(), 'ScopeFoundryH5Ingestor', ['hdf5'], true],
    ['table.csv', () => fx.CSV, 'DelimitedTextIngestor', ['table'], true],
    ['doc.json', () => fx.JSON_DOC, 'JsonIngestor', ['sample', 'tags', 'ok'], false],
  ];

  const rows = cases.map(([name, make, ingestor, keys, thumbnail]) => ({
    name,
    make,
    ingestor,
    keys,
    thumbnail,
  }));
  test.each(rows)(
    '$name: a request on upload, then metadata and thumbnails from $ingestor',
    async ({ name, make, ingestor, keys, thumbnail }) => {
      const ds = await makeDataset(t, owner, `ingest ${name}`);
      const file = await upload(t, owner.key, ds, name, await make());
      const before = await requestsOf(t, owner.key, { file_id: file });
      expect(before.items).toEqual([
        expect.objectContaining({ status: 'requested', file_mfid: file, dataset_mfid: ds }),
      ]);
      // set once the object is stored, before any ingestor ran
      const stored = kind === 's3' ? t.app.config.s3!.bucket : 'local-store';
      expect((await rest(t.url, 'GET', `/files/${file}`, { key: owner.key })).body.storage_path).toBe(
        `${stored}/${ds}/${name}`,
      );

      await drainJobs(t);
      const after = await requestsOf(t, owner.key, { file_id: file });
      expect(after.items[0]).toMatchObject({
        status: 'complete',
        ingestion_class: null,
        ingestor_used: ingestor,
        error_message: null,
      });
      expect(after.items[0].time_completed).toEqual(expect.any(String));
      const record = await dataset(t, owner.key, ds);
      for (const key of keys) expect(record.scientific_metadata).toHaveProperty(key);
      expect(record.dataset_name).toBe(`ingest ${name}`);
      const thumbs = await thumbnails(t, owner.key, ds);
      expect(thumbs.map((th) => th.thumbnail_name)).toEqual(thumbnail ? [name] : []);
      for (const th of thumbs) expect(th.mime_type).toBe('image/jpeg');
      expect((await rest(t.url, 'GET', `/files/${file}`, { key: owner.key })).body.storage_path).toBe(
        `${stored}/${ds}/${name}`,
      );
    },
  );

  test('an unknown binary ends `not supported`: nothing extracted, storage_path set on storing', async () => {
    const ds = await makeDataset(t, owner);
    const file = await upload(t, owner.key, ds, 'blob.bin', randomBytes(4096));
    await drainJobs(t);
    const [request] = (await requestsOf(t, owner.key, { file_id: file })).items;
    expect(request).toMatchObject({ status: 'not supported', ingestor_used: null });
    const record = await dataset(t, owner.key, ds);
    expect(record.scientific_metadata ?? {}).toEqual({});
    expect(record.data_format).toBeNull();
    expect(await thumbnails(t, owner.key, ds)).toEqual([]);
    const stored = kind === 's3' ? t.app.config.s3!.bucket : 'local-store';
    expect((await rest(t.url, 'GET', `/files/${file}`, { key: owner.key })).body.storage_path).toBe(
      `${stored}/${ds}/blob.bin`,
    );
  });
});

describe('ingestion rules and routes', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startAppOn('filesystem');
    [owner, stranger, admin] = await Promise.all([
      makeUser(t.app),
      makeUser(t.app),
      makeUser(t.app, { admin: true }),
    ]);
  });
  afterAll(() => t.close());

  test('ingestion keeps creation attributes and merges metadata on top-level keys: new keys added, existing keys replaced whole', async () => {
    const created = await rest(t.url, 'POST', '/datasets', {
      key: owner.key,
      body: { dataset_name: 'kept name', measurement: 'Raman (set at creation)' },
    });
    const ds = created.body.unique_id as string;
    await rest(t.url, 'PATCH', `/resources/${ds}/metadata`, {
      key: owner.key,
      body: { operator: 'Old Name', kept: 1, settings: { gain: 1, lamp: 'on' } },
    });
    await upload(t, owner.key, ds, 'run.yaml', fx.YAML_DOC);
    await upload(t, owner.key, ds, 'shot.jpg', await fx.jpegWithExif());
    await drainJobs(t);
    const record = await dataset(t, owner.key, ds);
    expect(record.dataset_name).toBe('kept name');
    expect(record.measurement).toBe('Raman (set at creation)');
    // empty fields are filled: the capture time from the EXIF, a data format from one of the files
    expect(record.timestamp).toBe('2024-05-06T07:08:09');
    expect(['yaml', 'jpg']).toContain(record.data_format);
    expect(record.scientific_metadata).toMatchObject({
      kept: 1,
      operator: 'Ada',
      run: 7,
      exif: { Make: 'Acme' },
    });
    // top-level keys (spec 1.5): the parsed `settings` replaces the stored one whole, never mixed
    expect(record.scientific_metadata.settings).toEqual({ gain: 2.5, mode: 'fast' });
    const keywords = (await rest(t.url, 'GET', `/datasets/${ds}/keywords`, { key: owner.key })).body;
    expect(keywords.map((k: { keyword: string }) => k.keyword)).toContain('Image');
  });

  test('re-ingestion is idempotent: thumbnails replaced, not duplicated; keywords once', async () => {
    const ds = await makeDataset(t, owner);
    const file = await upload(t, owner.key, ds, 'photo.png', await fx.png());
    await drainJobs(t);
    const first = await thumbnails(t, owner.key, ds);
    for (let i = 0; i < 2; i++) {
      const again = await rest(t.url, 'POST', `/files/${file}/ingest`, { key: owner.key });
      expect(again.status).toBe(201);
      expect(again.body).toMatchObject({ status: 'requested', file_mfid: file, ingestion_class: null });
      await drainJobs(t);
    }
    const requests = await requestsOf(t, owner.key, { file_id: file });
    expect(requests.items.map((r) => r.status)).toEqual(['complete', 'complete', 'complete']);
    const now = await thumbnails(t, owner.key, ds);
    expect(now).toHaveLength(1);
    expect(now[0].thumbnail_name).toBe(first[0].thumbnail_name);
    const keywords = (await rest(t.url, 'GET', `/datasets/${ds}/keywords`, { key: owner.key })).body;
    expect(keywords.filter((k: { keyword: string }) => k.keyword === 'Image')).toHaveLength(1);
  });

  test('a named ingestor is used even where the scan would pick another; unknown names are 422', async () => {
    const ds = await makeDataset(t, owner);
    const json = await upload(t, owner.key, ds, 'doc.json', fx.JSON_DOC, '?ingestor=ApiUploadIngestor');
    await drainJobs(t);
    const [registered] = (await requestsOf(t, owner.key, { file_id: json })).items;
    expect(registered).toMatchObject({
      status: 'complete',
      ingestion_class: 'ApiUploadIngestor',
      ingestor_used: 'ApiUploadIngestor',
    });
    expect((await dataset(t, owner.key, ds)).scientific_metadata ?? {}).toEqual({});

    // named, and used even though the file is no image: it fails with the ingestor's reason
    const wrong = await rest(t.url, 'POST', `/files/${json}/ingest`, {
      key: owner.key,
      query: { ingestion_class: 'imageingestor' },
    });
    expect(wrong.body.ingestion_class).toBe('ImageIngestor');
    await drainJobs(t);
    const failed = (await rest(t.url, 'GET', `/ingestion_requests/${wrong.body.id}`, { key: owner.key }))
      .body;
    expect(failed).toMatchObject({ status: 'failed', ingestor_used: 'ImageIngestor' });
    expect(failed.error_message).toMatch(/^ImageIngestor: /);

    const unknown = await rest(t.url, 'POST', `/files/${json}/ingest`, {
      key: owner.key,
      query: { ingestion_class: 'LammpsIngestor' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toMatch(/ingestion_class: unknown ingestor/);
    const form = await formUpload(
      t.url,
      owner.key,
      ds,
      [{ name: 'x.json', data: Buffer.from('{}') }],
      '?ingestor=Nope',
    );
    expect(form.status).toBe(422);
    const initiate = await rest(t.url, 'POST', `/datasets/${ds}/upload/initiate`, {
      key: owner.key,
      body: { filename: 'x.json', size: 2, ingestor: 'Nope' },
    });
    expect(initiate.status).toBe(422);
    expect((await rest(t.url, 'GET', `/datasets/${ds}/files`, { key: owner.key })).body).toHaveLength(1);
  });

  test('remote files are never ingested (409); dedup hits create no request', async () => {
    const ds = await makeDataset(t, owner);
    const remote = await rest(t.url, 'POST', `/datasets/${ds}/files`, {
      key: owner.key,
      body: { filename: 'far.h5', storage_backend: 'globus', storage_path: '/data/far.h5' },
    });
    expect(remote.status).toBe(201);
    const refused = await rest(t.url, 'POST', `/files/${remote.body.mfid}/ingest`, { key: owner.key });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/remote file/);
    expect((await requestsOf(t, owner.key, { dataset_id: ds })).total).toBe(0);

    const data = Buffer.from(fx.CSV);
    const file = await upload(t, owner.key, ds, 'a.csv', data);
    const dup = await formUpload(t.url, owner.key, ds, [{ name: 'b.csv', data }]);
    expect(dup.status).toBe(200);
    expect(dup.body.mfid).toBe(file);
    const resumable = await resumableUpload(t, owner.key, ds, 'c.csv', data);
    expect(resumable.initiate.body.existing_file.mfid).toBe(file);
    expect((await requestsOf(t, owner.key, { dataset_id: ds })).total).toBe(1);
  });

  test('legacy flow: resumable upload, POST /files/{id}/ingest, wait for a final status', async () => {
    const ds = await makeDataset(t, owner);
    const { complete } = await resumableUpload(t, owner.key, ds, 'table.tsv', Buffer.from(fx.TSV));
    const fileId = complete!.body.mfid as string;
    // the legacy protocol: `complete` records no request; the client's POST /files/{id}/ingest does
    expect((await requestsOf(t, owner.key, { file_id: fileId })).total).toBe(0);
    const asked = await rest(t.url, 'POST', `/files/${fileId}/ingest`, { key: owner.key });
    expect(asked.status).toBe(201);
    expect(Number.isInteger(asked.body.id)).toBe(true);
    expect(Object.keys(asked.body).sort()).toEqual(
      [
        'created_at',
        'dataset_mfid',
        'error_message',
        'file_id',
        'file_mfid',
        'id',
        'ingestion_class',
        'ingestion_githash',
        'ingestor_used',
        'status',
        'time_completed',
        'time_created',
        'time_started',
      ].sort(),
    );
    const byDataset = await requestsOf(t, owner.key, { dataset_id: ds, limit: '1000', offset: '0' });
    expect(byDataset.total).toBe(1);
    expect(byDataset.items[0].id).toBe(asked.body.id);
    // naming an ingestor on initiate records the request with the file
    const named0 = await resumableUpload(t, owner.key, ds, 'doc.json', Buffer.from(fx.JSON_DOC), undefined, {
      ingestor: 'JsonIngestor',
    });
    const [recorded] = (await requestsOf(t, owner.key, { file_id: named0.complete!.body.mfid })).items;
    expect(recorded).toMatchObject({ ingestion_class: 'JsonIngestor', status: 'requested' });
    // asking again while it waits joins it
    const twice = await rest(t.url, 'POST', `/files/${fileId}/ingest`, { key: owner.key });
    expect(twice.body.id).toBe(asked.body.id);
    // naming an ingestor joins it too (the waiting request had none) ...
    const named = await rest(t.url, 'POST', `/files/${fileId}/ingest`, {
      key: owner.key,
      query: { ingestion_class: 'DelimitedTextIngestor' },
    });
    expect(named.body).toMatchObject({ id: asked.body.id, ingestion_class: 'DelimitedTextIngestor' });
    // ... a different ingestor than the waiting one names queues another request
    const other = await rest(t.url, 'POST', `/files/${fileId}/ingest`, {
      key: owner.key,
      query: { ingestion_class: 'ApiUploadIngestor' },
    });
    expect(other.body.id).not.toBe(asked.body.id);
    expect((await requestsOf(t, owner.key, { file_id: fileId })).total).toBe(2);
    await drainJobs(t);
    const polled = await rest(t.url, 'GET', `/ingestion_requests/${asked.body.id}`, { key: owner.key });
    expect(polled.body.id).toBe(asked.body.id);
    expect(FINAL).toContain(polled.body.status);
    expect(polled.body.status).toBe('complete');
    expect(polled.body.ingestion_githash).toEqual(expect.any(String));
    expect(polled.body.ingestor_used).toBe('DelimitedTextIngestor');
    // once it has run, asking again is a re-ingestion: a new request
    const again = await rest(t.url, 'POST', `/files/${fileId}/ingest`, { key: owner.key });
    expect(again.body.id).not.toBe(asked.body.id);
    expect(again.body.status).toBe('requested');
    const ingestors = await rest(t.url, 'GET', '/ingestors', { key: owner.key });
    expect(ingestors.body).toEqual(
      expect.arrayContaining(['ImageIngestor', 'H5Ingestor', 'ApiUploadIngestor']),
    );
  });

  test('who may see and ask: readers see requests, contributors ask, strangers see nothing', async () => {
    const ds = await makeDataset(t, owner);
    const file = await upload(t, owner.key, ds, 'doc.json', fx.JSON_DOC);
    const viewer = await userWith(t, ds, 'viewer');
    const contributor = await userWith(t, ds, 'contributor');
    const [req] = (await requestsOf(t, owner.key, { file_id: file })).items;

    expect((await rest(t.url, 'GET', `/ingestion_requests/${req.id}`, { key: viewer.key })).status).toBe(200);
    expect((await rest(t.url, 'GET', `/ingestion_requests/${req.id}`, { key: stranger.key })).status).toBe(
      404,
    );
    expect((await rest(t.url, 'GET', '/ingestion_requests/not-a-number', { key: owner.key })).status).toBe(
      404,
    );
    expect((await requestsOf(t, stranger.key, { dataset_id: ds })).total).toBe(0);
    expect((await requestsOf(t, stranger.key, { file_id: file })).items).toEqual([]);
    expect((await requestsOf(t, viewer.key, { dataset_id: ds })).total).toBe(1);

    expect((await rest(t.url, 'POST', `/files/${file}/ingest`, { key: stranger.key })).status).toBe(404);
    expect((await rest(t.url, 'POST', `/files/${file}/ingest`, { key: viewer.key })).status).toBe(403);
    expect((await rest(t.url, 'POST', `/files/${file}/ingest`, { key: contributor.key })).status).toBe(201);
    expect((await rest(t.url, 'GET', '/ingestion_requests', { query: { dataset_id: ds } })).status).toBe(401);
  });

  test('PATCH /ingestion_requests/{id}: platform admins and service accounts, statuses forward only', async () => {
    const ds = await makeDataset(t, owner);
    const file = await upload(t, owner.key, ds, 'notes.bin', randomBytes(100));
    const [req] = (await requestsOf(t, owner.key, { file_id: file })).items;
    const path = `/ingestion_requests/${req.id}`;
    const worker = await makeUser(t.app, { serviceAccount: true });

    expect((await rest(t.url, 'PATCH', path, { key: owner.key, body: { status: 'started' } })).status).toBe(
      403,
    );
    expect((await rest(t.url, 'PATCH', path, { key: worker.key, body: { status: 'started' } })).status).toBe(
      404,
    );
    const bad = await rest(t.url, 'PATCH', path, {
      key: admin.key,
      body: { id: req.id + 1, status: 'in_progress', time_completed: 'yesterday', extra: 1 },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toMatch(/extra/);
    const invalid = await rest(t.url, 'PATCH', path, {
      key: admin.key,
      body: { id: req.id + 1, status: 'in_progress', time_completed: 'yesterday' },
    });
    expect(invalid.status).toBe(422);
    for (const field of ['id', 'status', 'time_completed']) expect(invalid.body.detail).toContain(field);

    await grant(t.app, ds, 'dataset', 'user', worker.user.uniqueId, 'viewer');
    const started = await rest(t.url, 'PATCH', path, {
      key: worker.key,
      body: { id: req.id, status: 'started', ingestion_githash: 'abc123', ingestion_class: null },
    });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ status: 'started', ingestion_githash: 'abc123' });
    expect(started.body.time_started).toEqual(expect.any(String));
    const done = await rest(t.url, 'PATCH', path, {
      key: admin.key,
      body: {
        id: req.id,
        status: 'complete',
        ingestion_githash: 'abc123',
        ingestion_class: 'DigitalMicrographIngestor',
        time_completed: '2026-01-17T01:31:26.123456-08:00',
      },
    });
    expect(done.body).toMatchObject({
      status: 'complete',
      ingestor_used: 'DigitalMicrographIngestor',
      time_completed: '2026-01-17T09:31:26.123Z',
    });
    expect((await rest(t.url, 'GET', `/files/${file}`, { key: owner.key })).body.storage_path).toMatch(
      /notes\.bin$/,
    );
    const back = await rest(t.url, 'PATCH', path, { key: admin.key, body: { status: 'failed' } });
    expect(back.status).toBe(409);
    // the service's own worker leaves a request finished elsewhere alone
    await drainJobs(t);
    expect((await rest(t.url, 'GET', path, { key: owner.key })).body.status).toBe('complete');
  });

  test('removing a dataset removes its requests and their queued jobs', async () => {
    const ds = await makeDataset(t, owner);
    const file = await upload(t, owner.key, ds, 'doc.json', fx.JSON_DOC);
    await rest(t.url, 'POST', `/datasets/${ds}/mosaic_stitch`, { key: owner.key });
    const [req] = (await requestsOf(t, owner.key, { file_id: file })).items;
    const em = t.app.orm.em.fork();
    const jobs = () => rawQuery(em, `select id from job where payload ->> 'dataset_mfid' = ?`, [ds]);
    expect(await jobs()).toHaveLength(2);
    const asked = await rest(t.url, 'POST', `/resources/${ds}/delete`, {
      key: owner.key,
      query: { reason: 'test' },
    });
    const approved = await rest(t.url, 'PATCH', `/deletion_requests/${asked.body.id}`, {
      key: admin.key,
      query: { status: 'approved' },
    });
    expect(approved.status).toBe(200);
    expect((await rest(t.url, 'GET', `/ingestion_requests/${req.id}`, { key: admin.key })).status).toBe(404);
    expect(await jobs()).toEqual([]);
  });

  test('GraphQL: ingestors, requestIngestion, ingestionRequest(s), the status on files', async () => {
    const ds = await makeDataset(t, owner);
    const file = await upload(t, owner.key, ds, 'photo.png', await fx.png());
    await drainJobs(t);
    const asked = await gql(
      t.url,
      owner.key,
      `mutation ($f: ID!) { requestIngestion(fileId: $f, ingestor: "ImageIngestor") { id status ingestionClass fileId datasetId } }`,
      { f: file },
    );
    expect(asked.data?.requestIngestion).toMatchObject({
      status: 'requested',
      ingestionClass: 'ImageIngestor',
      fileId: file,
      datasetId: ds,
    });
    const query = `query ($d: ID!, $id: Int!) {
      ingestors
      ingestionRequest(id: $id) { id status file { filename } dataset { uniqueId } }
      ingestionRequests(datasetId: $d, first: 1) { totalCount pageInfo { hasNextPage endCursor } nodes { id status } }
      dataset(id: $d) { files { nodes { filename ingestionStatus latestIngestion { id status } } } }
    }`;
    const mine = await gql(t.url, owner.key, query, { d: ds, id: asked.data.requestIngestion.id });
    expect(mine.errors).toBeUndefined();
    expect(mine.data.ingestors).toContain('ScopeFoundryH5Ingestor');
    expect(mine.data.ingestionRequest).toMatchObject({
      status: 'requested',
      file: { filename: 'photo.png' },
    });
    expect(mine.data.ingestionRequests).toMatchObject({ totalCount: 2, pageInfo: { hasNextPage: true } });
    expect(mine.data.dataset.files.nodes[0]).toMatchObject({
      ingestionStatus: 'requested',
      latestIngestion: { id: asked.data.requestIngestion.id },
    });
    const next = await gql(
      t.url,
      owner.key,
      `query ($d: ID!, $a: String) { ingestionRequests(datasetId: $d, first: 5, after: $a) { nodes { status } } }`,
      { d: ds, a: mine.data.ingestionRequests.pageInfo.endCursor },
    );
    expect(next.data.ingestionRequests.nodes).toEqual([{ status: 'complete' }]);

    const theirs = await gql(t.url, stranger.key, query, { d: ds, id: asked.data.requestIngestion.id });
    expect(theirs.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const list = await gql(
      t.url,
      stranger.key,
      `query ($d: ID!) { ingestionRequests(datasetId: $d) { totalCount } }`,
      {
        d: ds,
      },
    );
    expect(list.data.ingestionRequests.totalCount).toBe(0);
    const unknown = await gql(
      t.url,
      owner.key,
      `mutation ($f: ID!) { requestIngestion(fileId: $f, ingestor: "Nope") { id } }`,
      {
        f: file,
      },
    );
    expect(unknown.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'ingestor' }],
    });
  });

  test('analysis requests: queued on their own queue, contributors ask, readers see the status', async () => {
    const ds = await makeDataset(t, owner);
    const viewer = await userWith(t, ds, 'viewer');
    const contributor = await userWith(t, ds, 'contributor');
    for (const analysis of [
      'carrier_segmentation',
      'insitu_spec_aggregation',
      'rga_analysis',
      'mosaic_stitch',
    ]) {
      const r = await rest(t.url, 'POST', `/datasets/${ds}/${analysis}`, { key: contributor.key });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        dataset_mfid: ds,
        analysis,
        status: 'requested',
        queue: `analysis.${analysis}`,
      });
    }
    expect((await rest(t.url, 'POST', `/datasets/${ds}/mosaic_stitch`, { key: viewer.key })).status).toBe(
      403,
    );
    expect((await rest(t.url, 'POST', `/datasets/${ds}/mosaic_stitch`, { key: stranger.key })).status).toBe(
      404,
    );
    const asked = await rest(t.url, 'POST', `/datasets/${ds}/rga_analysis`, { key: owner.key });
    await drainJobs(t);
    const seen = await rest(t.url, 'GET', `/analysis_requests/${asked.body.id}`, { key: viewer.key });
    expect(seen.body).toMatchObject({ id: asked.body.id, status: 'requested' });
    expect(
      (await rest(t.url, 'GET', `/analysis_requests/${asked.body.id}`, { key: stranger.key })).status,
    ).toBe(404);
    expect(await t.app.services.jobs.unfinished(t.app.orm.em.fork(), ['analysis.rga_analysis'])).toBe(2);
  });
});
