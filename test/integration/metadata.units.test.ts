import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, unique, type TestUser } from '../support/factories';

/** Unit-aware metadata conditions over the typed side index; the documents stay as written. */
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let session: string;
const docs: Record<string, Record<string, unknown>> = {
  celsius: { temperature: { value: 30, unit: 'degC' }, note: 'warm' },
  kelvin: { temperature: { v: 310, u: 'K' } },
  text: { temperature: '20 degC' },
  unknown: { temperature: { value: 500, unit: 'furlongz' } },
  plain: { temperature: 400 },
  nested: { runs: [{ temperature: '350 K' }, { temperature: '10 degC' }] },
};
const ids: Record<string, string> = {};

const names = async (key: string, conditions: unknown[]) => {
  const res = await gql(
    t.url,
    key,
    `query($f: DatasetFilterInput) { datasets(filter: $f) { totalCount nodes { datasetName } } }`,
    { f: { sessionName: session, metadata: conditions } },
  );
  expect(res.errors).toBeUndefined();
  const found = res.data.datasets.nodes.map((n: { datasetName: string }) => n.datasetName).sort();
  expect(res.data.datasets.totalCount).toBe(found.length);
  return found;
};

beforeAll(async () => {
  t = await startTestApp();
  owner = await makeUser(t.app);
  stranger = await makeUser(t.app);
  session = unique('units');
  for (const [name, doc] of Object.entries(docs)) {
    // on create for half of them, by merge (PATCH) for the others
    const onCreate = name.length % 2 === 0;
    const res = await rest(t.url, 'POST', '/datasets', {
      key: owner.key,
      body: { dataset_name: name, session_name: session, ...(onCreate ? { scientific_metadata: doc } : {}) },
    });
    expect(res.status).toBe(201);
    ids[name] = res.body.unique_id as string;
    if (!onCreate) {
      const patched = await rest(t.url, 'PATCH', `/resources/${ids[name]}/metadata`, {
        key: owner.key,
        body: doc,
      });
      expect(patched.status).toBe(200);
    }
  }
});
afterAll(() => t.close());

test('quantities compare in SI whatever unit they were written in', async () => {
  const above300K = ['celsius', 'kelvin', 'nested'];
  expect(
    await names(owner.key, [{ path: 'temperature', op: 'gt', value: { value: 300, unit: 'K' } }]),
  ).toEqual(above300K.filter((n) => n !== 'nested'));
  expect(await names(owner.key, [{ path: 'runs.temperature', op: 'gt', value: '300 K' }])).toEqual([
    'nested',
  ]);
  expect(await names(owner.key, [{ path: 'temperature', op: 'gt', value: '300 K' }])).toEqual([
    'celsius',
    'kelvin',
  ]);
  expect(await names(owner.key, [{ path: 'temperature', op: 'lt', value: { v: 25, u: 'degC' } }])).toEqual([
    'text',
  ]);
  expect(
    await names(owner.key, [{ path: 'temperature', op: 'eq', value: { value: 86, unit: 'degF' } }]),
  ).toEqual(['celsius']);
  expect(await names(owner.key, [{ path: 'runs.temperature', op: 'lte', value: '283.15 K' }])).toEqual([
    'nested',
  ]);
  // a plain number is no quantity; numbers compare with numbers, from the same index
  expect(await names(owner.key, [{ path: 'temperature', op: 'gte', value: 400 }])).toEqual(['plain']);
  expect(await names(owner.key, [{ path: 'temperature.value', op: 'eq', value: 30 }])).toEqual(['celsius']);
  // other dimensions never match
  expect(await names(owner.key, [{ path: 'temperature', op: 'gt', value: '1 m' }])).toEqual([]);
  // another caller sees none of it
  const other = await gql(
    t.url,
    stranger.key,
    `query($f: DatasetFilterInput) { datasets(filter: $f) { totalCount } }`,
    { f: { sessionName: session, metadata: [{ path: 'temperature', op: 'gt', value: '1 K' }] } },
  );
  expect(other.data.datasets.totalCount).toBe(0);
});

test('unknown units are kept as written and are not unit-searchable', async () => {
  expect(
    await names(owner.key, [{ path: 'temperature', op: 'gt', value: { value: 0, unit: 'K' } }]),
  ).not.toContain('unknown');
  expect(await names(owner.key, [{ path: 'temperature.unit', op: 'eq', value: 'furlongz' }])).toEqual([
    'unknown',
  ]);
  const bad = await gql(
    t.url,
    owner.key,
    `query($f: DatasetFilterInput) { datasets(filter: $f) { totalCount } }`,
    { f: { metadata: [{ path: 'temperature', op: 'gt', value: { value: 1, unit: 'furlongz' } }] } },
  );
  expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  expect(bad.errors?.[0].extensions?.fields?.[0].field).toBe('metadata[0].value');
});

test('documents are returned exactly as written, and replacing them re-indexes', async () => {
  for (const [name, doc] of Object.entries(docs)) {
    const res = await rest(t.url, 'GET', `/resources/${ids[name]}/metadata`, { key: owner.key });
    expect(res.body.scientific_metadata).toEqual(doc);
    expect(JSON.stringify(res.body.scientific_metadata)).not.toMatch(/SI|si_/);
  }
  const replaced = await rest(t.url, 'POST', `/resources/${ids.kelvin}/metadata`, {
    key: owner.key,
    body: { temperature: { value: 1, unit: 'degC' } },
  });
  expect(replaced.status).toBe(200);
  expect(await names(owner.key, [{ path: 'temperature', op: 'gt', value: '300 K' }])).toEqual(['celsius']);
  expect(await names(owner.key, [{ path: 'temperature', op: 'lt', value: '275 K' }])).toEqual(['kelvin']);
});
