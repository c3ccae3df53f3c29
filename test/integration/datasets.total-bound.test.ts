import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, unique, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';

/**
 * The totals of full-text and metadata searches are counted up to TOTAL_COUNT_LIMIT (here 3) and
 * reported as "at least" past it (`total_exact` / `totalCountIsExact: false`); every other
 * filter keeps an exact total whatever its size, and the bound counts only readable records.
 */
let t: TestApp;
let alice: TestUser;
let bob: TestUser;
const word = unique('w').replace(/[^a-z]/g, '') + 'bnd';
const measurement = unique('m');

beforeAll(async () => {
  t = await startTestApp({ TOTAL_COUNT_LIMIT: '3' });
  [alice, bob] = await Promise.all([makeUser(t.app), makeUser(t.app)]);
  for (let i = 0; i < 5; i++) {
    await newDataset(t.url, alice.key, {
      dataset_name: `${word} run ${i}`,
      measurement,
      scientific_metadata: { bound: { tag: word, i } },
    });
  }
  for (let i = 0; i < 2; i++) {
    await newDataset(t.url, bob.key, {
      dataset_name: `${word} secret ${i}`,
      scientific_metadata: { bound: { tag: word } },
    });
    await newSample(t.url, alice.key, {
      sample_name: `${word}-s${i}`,
      scientific_metadata: { bound: { tag: word } },
    });
  }
  await newSample(t.url, alice.key, {
    sample_name: `${word}-s2`,
    scientific_metadata: { bound: { tag: word } },
  });
  await newSample(t.url, alice.key, {
    sample_name: `${word}-s3`,
    scientific_metadata: { bound: { tag: word } },
  });
}, 120_000);
afterAll(() => t.close());

const list = (key: string, query: Record<string, string | number>) =>
  rest(t.url, 'GET', '/datasets', { key, query });

test('REST: a full-text total past the limit is a lower bound; under it, exact', async () => {
  const wide = await list(alice.key, { text: word, limit: 2 });
  expect(wide.status).toBe(200);
  expect(wide.body.items).toHaveLength(2);
  expect(wide.body).toMatchObject({ total: 3, total_exact: false });
  // bob reads only his two: exact
  expect((await list(bob.key, { text: word })).body).toMatchObject({ total: 2, total_exact: true });
  // a legacy filter stays exact past the limit (the legacy client counts with limit=1)
  expect((await list(alice.key, { measurement, limit: 1 })).body).toMatchObject({
    total: 5,
    total_exact: true,
  });
  expect((await list(alice.key, { text: `${word} 4` })).body).toMatchObject({ total: 1, total_exact: true });
});

const DATASETS = `query($filter: DatasetFilterInput) {
  datasets(first: 1, filter: $filter) { totalCount totalCountIsExact nodes { uniqueId } }
}`;
const SAMPLES = `query($filter: SampleFilterInput) {
  samples(first: 1, filter: $filter) { totalCount totalCountIsExact }
}`;
const FACETS = `query($filter: DatasetFilterInput) { datasetFacets(filter: $filter) { total totalIsExact capped } }`;

test('GraphQL: totalCountIsExact for full-text and metadata searches, datasets and samples', async () => {
  const condition = [{ path: 'bound.tag', op: 'eq', value: word }];
  const datasets = async (key: string, filter: object) =>
    (await gql<any>(t.url, key, DATASETS, { filter })).data.datasets;
  expect(await datasets(alice.key, { text: word })).toMatchObject({
    totalCount: 3,
    totalCountIsExact: false,
  });
  expect(await datasets(alice.key, { metadata: condition })).toMatchObject({
    totalCount: 3,
    totalCountIsExact: false,
  });
  expect(await datasets(bob.key, { metadata: condition })).toMatchObject({
    totalCount: 2,
    totalCountIsExact: true,
  });
  expect(await datasets(alice.key, { measurement })).toMatchObject({
    totalCount: 5,
    totalCountIsExact: true,
  });

  const samples = await gql<any>(t.url, alice.key, SAMPLES, { filter: { metadata: condition } });
  expect(samples.data.samples).toEqual({ totalCount: 3, totalCountIsExact: false });
  const fewer = await gql<any>(t.url, bob.key, SAMPLES, { filter: { metadata: condition } });
  expect(fewer.data.samples).toEqual({ totalCount: 0, totalCountIsExact: true });

  // facets count their sample exactly (it is bounded by FACET_SAMPLE already)
  const facets = await gql<any>(t.url, alice.key, FACETS, { filter: { text: word } });
  expect(facets.data.datasetFacets).toEqual({ total: 5, totalIsExact: true, capped: false });
});

test('the bounded count reads no further than the limit', async () => {
  t.queries.length = 0;
  await list(alice.key, { text: word, limit: 1 });
  const counts = t.queries.filter((q) => /count\(\*\)/.test(q));
  expect(counts).toHaveLength(1);
  expect(counts[0]).toMatch(/limit/);
});
