import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, unique, type TestUser } from '../support/factories';
import { rawQuery } from '../../src/core/db/raw';

/**
 * Search that forgives (issue 27, item 9; docs/web-app.md): the GraphQL and page filters on text
 * fields equal their value ignoring case, and the facets count values that differ only in case
 * as one (so a facet value, clicked, selects its count); the REST routes keep their documented
 * exact match; a dataset is found by the names of its files, kept current as files come, change
 * and go.
 */
let t: TestApp;
let alice: TestUser;
let session: string;
let measure: string;
let instrument: string;

const create = async (body: Record<string, unknown>) => {
  const res = await rest(t.url, 'POST', '/datasets', {
    key: alice.key,
    body: { session_name: session, ...body },
  });
  expect(res.status).toBe(201);
  return res.body.unique_id as string;
};

interface Facet {
  value: string;
  count: number;
}
const list = async (filter: Record<string, unknown>) => {
  const res = await gql<{ datasets: { totalCount: number; edges: { node: { datasetName: string } }[] } }>(
    t.url,
    alice.key,
    `query($f: DatasetFilterInput) { datasets(filter: $f, first: 50) { totalCount edges { node { datasetName } } } }`,
    { f: filter },
  );
  expect(res.errors).toBeUndefined();
  return {
    total: res.data!.datasets.totalCount,
    names: res.data!.datasets.edges.map((e) => e.node.datasetName).sort(),
  };
};
const facets = async (filter: Record<string, unknown>) => {
  const res = await gql<{ datasetFacets: { total: number; measurement: Facet[]; dataType: Facet[] } }>(
    t.url,
    alice.key,
    `query($f: DatasetFilterInput) { datasetFacets(filter: $f) { total
      measurement { value count } dataType { value count } } }`,
    { f: filter },
  );
  expect(res.errors).toBeUndefined();
  return res.data!.datasetFacets;
};
const restNames = async (query: Record<string, string>) => {
  const res = await rest(t.url, 'GET', '/datasets', { key: alice.key, query: { ...query, limit: 100 } });
  expect(res.status).toBe(200);
  return (res.body.items as { dataset_name: string }[]).map((d) => d.dataset_name).sort();
};

beforeAll(async () => {
  t = await startTestApp();
  alice = await makeUser(t.app);
  session = unique('Forgive');
  // mixed case in the prefix: upper, lower and as-is are three spellings even when the random
  // suffix is all digits (it is, about once in 43 runs)
  measure = unique('Xrd');
  instrument = unique('Forgiving Diffractometer');
  const admin = await makeUser(t.app, { admin: true });
  const made = await rest(t.url, 'POST', '/instruments', {
    key: admin.key,
    body: { instrument_name: instrument, owner: alice.user.uniqueId },
  });
  expect(made.status).toBe(201);
  const instrumentMfid = made.body.unique_id as string;
  await create({
    dataset_name: 'Upper',
    measurement: measure.toUpperCase(),
    data_type: 'Image',
    data_format: 'TIFF',
  });
  await create({
    dataset_name: 'lower',
    measurement: measure.toLowerCase(),
    data_type: 'image',
    data_format: 'tiff',
  });
  await create({
    dataset_name: 'Mixed',
    measurement: measure,
    data_type: 'IMAGE',
    instrument_mfid: instrumentMfid,
  });
  await create({ dataset_name: 'other', measurement: `${measure}-other`, data_type: 'spectrum' });
});
afterAll(() => t.close());

describe('text filters ignore case in GraphQL and the page', () => {
  it('match every spelling of a measurement, data type, format, name, session and instrument', async () => {
    expect(await list({ sessionName: session.toUpperCase(), measurement: measure.toLowerCase() })).toEqual({
      total: 3,
      names: ['Mixed', 'Upper', 'lower'],
    });
    expect((await list({ sessionName: session, dataType: 'iMaGe' })).total).toBe(3);
    expect((await list({ sessionName: session, dataFormat: 'Tiff' })).names).toEqual(['Upper', 'lower']);
    expect((await list({ sessionName: session, datasetName: 'UPPER' })).names).toEqual(['Upper']);
    expect((await list({ instrumentName: instrument.toLowerCase() })).names).toEqual(['Mixed']);
    // equality, not a substring
    expect((await list({ sessionName: session, measurement: measure.slice(0, -1) })).total).toBe(0);
  });

  it('agree with the facets: a value shown, clicked, selects its count', async () => {
    const all = await facets({ sessionName: session.toLowerCase() });
    expect(all.total).toBe(4);
    const shown = all.measurement.filter((v) => v.value.toLowerCase() === measure.toLowerCase());
    expect(shown).toHaveLength(1);
    expect(shown[0].count).toBe(3);
    expect(all.dataType.filter((v) => v.value.toLowerCase() === 'image')).toEqual([
      { value: expect.any(String), count: 3 },
    ]);
    // clicked: the list and the facets of the narrowed search count the same
    const clicked = { sessionName: session, measurement: shown[0].value };
    expect((await list(clicked)).total).toBe(3);
    expect((await facets(clicked)).total).toBe(3);
    // the tally answers a measurement alone: the same count, over every spelling
    const alone = await facets({ measurement: shown[0].value });
    expect(alone.total).toBe(3);
    expect(alone.measurement).toEqual([{ value: expect.any(String), count: 3 }]);
    expect((await list({ measurement: shown[0].value })).total).toBe(3);
  });

  it('stay exact on the REST routes (the legacy clients read them as documented)', async () => {
    expect(await restNames({ session_name: session, measurement: measure.toLowerCase() })).toEqual(['lower']);
    expect(await restNames({ session_name: session.toLowerCase() })).toEqual([]);
    const restFacets = await rest(t.url, 'GET', '/datasets/facets', {
      key: alice.key,
      query: { session_name: session },
    });
    expect(restFacets.status).toBe(200);
    const spellings = (restFacets.body.measurement as Facet[]).filter(
      (v) => v.value.toLowerCase() === measure.toLowerCase(),
    );
    expect(spellings).toHaveLength(3);
  });
});

describe('file names are searchable', () => {
  it('finds a dataset by the name of one of its files, as files come, are renamed and go', async () => {
    const ds = await create({ dataset_name: 'with files' });
    const tag = `${Date.now()}`.slice(-6);
    const name = `scan_${tag}.h5`;
    const added = await rest(t.url, 'POST', `/datasets/${ds}/files`, {
      key: alice.key,
      body: { filename: name, storage_backend: 'nersc', size: 9 },
    });
    expect(added.status).toBe(201);
    const fileId = (added.body as { mfid: string }).mfid;
    expect((await list({ text: name })).names).toEqual(['with files']);
    expect((await list({ text: `scan_${tag}` })).names).toEqual(['with files']);
    expect(await restNames({ text: name })).toEqual(['with files']);
    // renamed (any writer: the database keeps the text)
    const em = t.app.orm.em.fork();
    await rawQuery(em, `update associated_file set filename = ? where unique_id = ?`, [
      `run_${tag}.hdf5`,
      fileId,
    ]);
    expect((await list({ text: name })).total).toBe(0);
    expect((await list({ text: `run_${tag}.hdf5` })).names).toEqual(['with files']);
    // deleted
    expect((await rest(t.url, 'DELETE', `/files/${fileId}`, { key: alice.key })).status).toBe(200);
    expect((await list({ text: `run_${tag}.hdf5` })).total).toBe(0);
    // the dataset's own text is still there
    expect((await list({ text: 'with files', sessionName: session })).names).toEqual(['with files']);
  });
});
