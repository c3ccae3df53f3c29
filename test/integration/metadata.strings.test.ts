import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, unique, type TestUser } from '../support/factories';
import { rawQuery } from '../../src/core/db/raw';

/**
 * String equality over the string side index (`metadata_string`) answers exactly what the
 * document's jsonpath answers: nested keys, arrays element-wise, unicode, strings inside
 * quantities, and values the index does not hold (too long) from the document itself. Number
 * equality over `metadata_value` likewise, through arrays and arrays of arrays.
 */
let t: TestApp;
let owner: TestUser;
let session: string;
const long = 'x'.repeat(250);
const docs: Record<string, Record<string, unknown>> = {
  si: { sample: { material: 'Si', note: 'wafer' }, tags: ['a', 'b'] },
  gaas: { sample: { material: 'GaAs' }, tags: ['b', 'c'], runs: [{ label: 'r1' }, { label: 'r2' }] },
  unicode: { sample: { material: 'Ångström-Ti₂O₃ 🧪' }, temperature: { value: 30, unit: 'degC' } },
  number: { sample: { material: 5 }, code: '5' },
  empty: { sample: { material: '' }, long },
  nested: { runs: [[{ label: 'r1' }]], deep: { a: { b: { c: 'd' } } }, tags: [['b']], more: [[['b']]] },
  leafs: { runs: [{ label: [['r1']] }], more: [['c']] },
  numbers: { n: 5, arr: [6, [7], [[8]]], runs: [{ e: 9 }, [{ e: 10 }]], q: { value: 11, unit: 'K' } },
  numbers2: { deep: { arr: [[[6]]], n: [5] }, runs: { e: [[9]] } },
};
const ids: Record<string, string> = {};

const byIndex = async (path: string, value: unknown) => {
  const res = await gql(
    t.url,
    owner.key,
    `query($f: DatasetFilterInput) { datasets(filter: $f) { totalCount nodes { datasetName } } }`,
    { f: { sessionName: session, metadata: [{ path, op: 'eq', value }] } },
  );
  expect(res.errors).toBeUndefined();
  return (res.data.datasets.nodes as { datasetName: string }[]).map((n) => n.datasetName).sort();
};

/** The answer of the document itself: jsonpath over scientific_metadata. */
const byDocument = async (path: string, value: unknown) => {
  const jsonpath = `$${path
    .split('.')
    .map((k) => `.${JSON.stringify(k)}`)
    .join('')} ? (@ == ${JSON.stringify(value)})`;
  const rows = await rawQuery<{ name: string }>(
    t.app.orm.em.fork(),
    `select d.dataset_name as name from dataset d join scientific_metadata m on m.resource_id = d.unique_id
     where d.session_name = ? and m.data @\\? ?::jsonpath order by 1`,
    [session, jsonpath],
  );
  return rows.map((r) => r.name);
};

beforeAll(async () => {
  t = await startTestApp();
  owner = await makeUser(t.app);
  session = unique('strings');
  for (const [name, doc] of Object.entries(docs)) {
    const res = await rest(t.url, 'POST', '/datasets', {
      key: owner.key,
      body: { dataset_name: name, session_name: session, scientific_metadata: doc },
    });
    expect(res.status).toBe(201);
    ids[name] = res.body.unique_id as string;
  }
});
afterAll(() => t.close());

test.each([
  ['sample.material', 'Si'],
  ['sample.material', 'GaAs'],
  ['sample.material', 'Ångström-Ti₂O₃ 🧪'],
  ['sample.material', ''],
  ['sample.material', '5'],
  ['code', '5'],
  ['tags', 'b'],
  ['runs.label', 'r1'],
  ['more', 'b'],
  ['more', 'c'],
  ['deep.a.b.c', 'd'],
  ['temperature.unit', 'degC'],
  ['sample.note', 'wafer'],
  ['sample.material', 'si'],
  ['long', long],
  ['nowhere', 'Si'],
  // numbers: the numeric side index (metadata_value) reaches what jsonpath reaches
  ['n', 5],
  ['arr', 6],
  ['arr', 7],
  ['arr', 8],
  ['runs.e', 9],
  ['runs.e', 10],
  ['q.value', 11],
  ['deep.arr', 6],
  ['deep.n', 5],
  ['sample.material', 5],
])('%s eq %j: the index answers what the document does', async (path, value: unknown) => {
  const expected = await byDocument(path, value);
  expect(await byIndex(path, value)).toEqual(expected);
});

test('the side index holds the strings and follows each write of the document', async () => {
  const em = t.app.orm.em.fork();
  const held = await rawQuery<{ path: string; str: string }>(
    em,
    'select path, str from metadata_string where resource_id = ? order by path, str',
    [ids.gaas],
  );
  expect(held).toEqual([
    { path: 'runs.label', str: 'r1' },
    { path: 'runs.label', str: 'r2' },
    { path: 'sample.material', str: 'GaAs' },
    { path: 'tags', str: 'b' },
    { path: 'tags', str: 'c' },
  ]);
  // a 250-character string is not in the index, and is still found (from the document)
  expect(
    await rawQuery(em, 'select 1 from metadata_string where resource_id = ? and path = ?', [
      ids.empty,
      'long',
    ]),
  ).toEqual([]);
  expect(await byIndex('long', long)).toEqual(['empty']);
  // merge, then replace: the index follows
  const merged = await rest(t.url, 'PATCH', `/resources/${ids.si}/metadata`, {
    key: owner.key,
    body: { sample: { material: 'Ge' } },
  });
  expect(merged.status).toBe(200);
  expect(await byIndex('sample.material', 'Si')).toEqual([]);
  expect(await byIndex('sample.material', 'Ge')).toEqual(['si']);
  expect(await byIndex('tags', 'a')).toEqual(['si']);
  // the strings go with their document
  await rawQuery(em, 'delete from scientific_metadata where resource_id = ?', [ids.number]);
  expect(await rawQuery(em, 'select 1 from metadata_string where resource_id = ?', [ids.number])).toEqual([]);
});
