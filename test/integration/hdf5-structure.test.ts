import { Readable } from 'node:stream';
import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';
import { formUpload, makeDataset } from '../support/files';
import { h5 } from '../support/fixtures';
import { drainJobs } from '../support/jobs';
import { rawQuery } from '../../src/core/db/raw';
import {
  STRUCTURE_MAX_ATTRIBUTE_BYTES,
  STRUCTURE_MAX_ATTRIBUTES,
  STRUCTURE_MAX_DEPTH,
} from '../../src/modules/file/file-structure';

/**
 * Issue 27 item 10: each HDF5 file's preview shows that file's own structure (`file_structure`,
 * recorded by its ingestion), never the dataset's `hdf5` metadata, which the last file ingested
 * overwrites. Two files of different structure in one dataset; re-ingestion replaces; a failed
 * run and a file not yet ingested say so; deletion removes the row; a stranger's answer is the
 * missing file's; the limits cut with `truncated`.
 */
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let ds: string;
let first: string;
let second: string;

interface Node {
  path: string;
  kind: string;
  shape: number[] | null;
  dtype: string | null;
  attributes: Record<string, unknown>;
}
interface Preview {
  kind: string;
  reason: string | null;
  structure: { format: string; nodes: Node[]; truncated: boolean; ingestor: string | null } | null;
}

const scanA = () =>
  h5({
    attrs: { instrument: 'beamline 7', version: 3 },
    groups: {
      entry: {
        attrs: { title: 'scan 12' },
        datasets: { counts: { data: new Float64Array(16).map((_, i) => i * i), attrs: { units: 'counts' } } },
      },
    },
  });

const scanB = () =>
  h5({
    attrs: { detector: 'pilatus' },
    groups: {
      raw: { datasets: { frames: { data: new Int32Array(12), shape: [3, 4], attrs: { exposure_s: 0.25 } } } },
      calib: { attrs: { date: '2026-11-01' }, datasets: { gain: { data: new Float32Array(5).fill(1.5) } } },
    },
  });

async function upload(name: string, data: Buffer): Promise<string> {
  const up = await formUpload(t.url, owner.key, ds, [{ name, data }]);
  expect(up.status).toBeLessThan(300);
  const body = up.body as { mfid?: string; unique_id?: string };
  return (body.mfid ?? body.unique_id) as string;
}

async function preview(id: string, key = owner.key): Promise<Preview> {
  const r = await rest(t.url, 'GET', `/files/${id}/preview`, { key });
  expect(r.status).toBe(200);
  return r.body as Preview;
}

const byPath = (p: Preview) => Object.fromEntries((p.structure?.nodes ?? []).map((n) => [n.path, n]));

async function storedRows(id: string): Promise<number> {
  const rows = await rawQuery<{ n: number }>(
    t.app.orm.em.fork(),
    'select count(*)::int as n from file_structure where file_mfid = ?',
    [id],
  );
  return rows[0].n;
}

/** Puts other bytes under a stored file's object key (the file's record stays as it is). */
async function replaceBytes(id: string, data: Buffer): Promise<void> {
  const rows = await rawQuery<{ storage_key: string }>(
    t.app.orm.em.fork(),
    'select storage_key from associated_file where unique_id = ?',
    [id],
  );
  await t.app.services.download.store.put(rows[0].storage_key, Readable.from([data]));
}

async function reingest(id: string): Promise<void> {
  const r = await rest(t.url, 'POST', `/files/${id}/ingest`, { key: owner.key });
  expect(r.status).toBe(201);
  await drainJobs(t);
}

beforeAll(async () => {
  t = await startTestApp();
  [owner, stranger] = await Promise.all([makeUser(t.app), makeUser(t.app)]);
  ds = await makeDataset(t, owner, 'hdf5 structures');
  first = await upload('scan-a.h5', await scanA());
  second = await upload('scan-b.nxs', await scanB());
}, 120_000);
afterAll(async () => {
  await t?.close();
});

test('a file not yet ingested says so plainly, not the dataset metadata', async () => {
  const p = await preview(first);
  expect(p).toMatchObject({ kind: 'hdf5', structure: null });
  expect(p.reason).toMatch(/not ingested yet/);
});

test("two HDF5 files of one dataset: each preview shows its own structure, not the other's", async () => {
  await drainJobs(t);
  const a = await preview(first);
  const b = await preview(second);
  expect(a.structure).toMatchObject({ format: 'hdf5', truncated: false, ingestor: 'H5Ingestor' });
  expect(a.reason).toBeNull();
  const nodesA = byPath(a);
  const nodesB = byPath(b);
  expect(Object.keys(nodesA)).toEqual(['/', '/entry', '/entry/counts']);
  expect(nodesA['/']).toMatchObject({ kind: 'group', attributes: { instrument: 'beamline 7', version: 3 } });
  expect(nodesA['/entry']).toMatchObject({ kind: 'group', attributes: { title: 'scan 12' } });
  expect(nodesA['/entry/counts']).toMatchObject({
    kind: 'dataset',
    shape: [16],
    dtype: 'float64',
    attributes: { units: 'counts' },
  });
  expect(Object.keys(nodesB).sort()).toEqual(['/', '/calib', '/calib/gain', '/raw', '/raw/frames']);
  expect(nodesB['/']).toMatchObject({ attributes: { detector: 'pilatus' } });
  expect(nodesB['/raw/frames']).toMatchObject({
    kind: 'dataset',
    shape: [3, 4],
    dtype: 'int32',
    attributes: { exposure_s: 0.25 },
  });
  expect(nodesB['/calib/gain']).toMatchObject({ shape: [5], dtype: 'float32' });
  // neither shows the other's
  expect(JSON.stringify(a)).not.toMatch(/pilatus|frames|calib/);
  expect(JSON.stringify(b)).not.toMatch(/beamline|counts|entry/);

  // GraphQL: the same, per file
  const g = await gql(
    t.url,
    owner.key,
    `query($a: ID!, $b: ID!) {
      a: filePreview(file: $a) { kind reason structure { format truncated nodes { path kind shape dtype attributes } } }
      b: filePreview(file: $b) { kind reason structure { format truncated nodes { path kind shape dtype attributes } } }
    }`,
    { a: first, b: second },
  );
  expect(g.errors).toBeUndefined();
  expect(g.data.a.structure.nodes).toEqual(a.structure?.nodes.map((n) => ({ ...n })));
  expect(g.data.b.structure.nodes).toEqual(b.structure?.nodes.map((n) => ({ ...n })));
});

test('re-ingestion replaces the recorded structure (never appends); a failed run says so', async () => {
  // the first file's object now holds the second file's layout: a new run records that, alone
  await replaceBytes(first, await scanB());
  await reingest(first);
  const again = await preview(first);
  expect(Object.keys(byPath(again)).sort()).toEqual(['/', '/calib', '/calib/gain', '/raw', '/raw/frames']);
  expect(JSON.stringify(again)).not.toMatch(/beamline|counts|entry/);
  expect(await storedRows(first)).toBe(1);
  // the same run twice: the same nodes, not twice as many
  await reingest(first);
  expect((await preview(first)).structure?.nodes).toEqual(again.structure?.nodes);

  // bytes that are no HDF5 file: the run fails and the preview says so, showing no structure
  await replaceBytes(first, Buffer.from('not an HDF5 file at all'));
  await reingest(first);
  const failed = await preview(first);
  expect(failed).toMatchObject({ kind: 'hdf5', structure: null });
  expect(failed.reason).toMatch(/^ingestion failed on this file: H5Ingestor: not a readable HDF5 file/);

  await replaceBytes(first, await scanA());
  await reingest(first);
  expect(Object.keys(byPath(await preview(first)))).toEqual(['/', '/entry', '/entry/counts']);
}, 120_000);

test("a reader without access gets the missing file's answer, on REST and GraphQL", async () => {
  const missingId = '0000000000000000000000000a';
  const denied = await rest(t.url, 'GET', `/files/${second}/preview`, { key: stranger.key });
  const missing = await rest(t.url, 'GET', `/files/${missingId}/preview`, { key: stranger.key });
  expect([denied.status, missing.status]).toEqual([404, 404]);
  expect(JSON.stringify(denied.body).replace(second, 'X')).toBe(
    JSON.stringify(missing.body).replace(missingId, 'X'),
  );
  const q = `query($f: ID!) { filePreview(file: $f) { structure { nodes { path } } } }`;
  const gd = await gql(t.url, stranger.key, q, { f: second });
  const gm = await gql(t.url, stranger.key, q, { f: missingId });
  expect(gd.data?.filePreview ?? null).toBeNull();
  expect(gd.errors).toBeDefined();
  expect(JSON.stringify(gd.errors).replace(second, 'X')).toBe(
    JSON.stringify(gm.errors).replace(missingId, 'X'),
  );
});

test('the limits cut a large structure and mark it truncated', async () => {
  const attrs: Record<string, string | number> = {
    Long_text: 'x'.repeat(STRUCTURE_MAX_ATTRIBUTE_BYTES + 100),
  };
  for (let i = 0; i < STRUCTURE_MAX_ATTRIBUTES + 10; i++) attrs[`a${String(i).padStart(3, '0')}`] = i;
  // groups nested deeper than the stored levels
  let deep: { groups?: Record<string, object> } = {};
  for (let i = STRUCTURE_MAX_DEPTH + 3; i > 0; i--) deep = { groups: { [`g${i}`]: deep } };
  const id = await upload('big.h5', await h5({ attrs, ...deep }));
  await drainJobs(t);
  const p = await preview(id);
  expect(p.structure?.truncated).toBe(true);
  const root = byPath(p)['/'];
  expect(Object.keys(root.attributes)).toHaveLength(STRUCTURE_MAX_ATTRIBUTES);
  expect(root.attributes.Long_text).toEqual({ omitted: true, bytes: STRUCTURE_MAX_ATTRIBUTE_BYTES + 102 });
  const depths = p.structure!.nodes.map((n) => (n.path === '/' ? 0 : n.path.split('/').length - 1));
  expect(Math.max(...depths)).toBe(STRUCTURE_MAX_DEPTH);
  // the two small files were not cut
  expect((await preview(second)).structure?.truncated).toBe(false);
}, 120_000);

test("deleting a file removes its structure; the other file's stays", async () => {
  expect(await storedRows(second)).toBe(1);
  const del = await rest(t.url, 'DELETE', `/files/${second}`, { key: owner.key });
  expect(del.status).toBe(200);
  expect(await storedRows(second)).toBe(0);
  expect(await storedRows(first)).toBe(1);
  expect((await rest(t.url, 'GET', `/files/${second}/preview`, { key: owner.key })).status).toBe(404);
});
