import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, unique, type TestUser } from '../support/factories';

/**
 * Keyword facets agree with the list they open (issue 27; docs/web-app.md, "Keyword facets"): a
 * keyword facet counts the datasets carrying that keyword, and `keywordExact` (what a facet link
 * sets: the whole keyword, in any case as keywords are one record whatever their case) lists
 * exactly those, while the typed `keyword` filter stays a substring and may list more.
 */
let t: TestApp;
let alice: TestUser;
let k: string;

interface Facet {
  value: string;
  count: number;
}

const list = async (filter: Record<string, unknown>) => {
  const res = await gql<{ datasets: { totalCount: number; nodes: { datasetName: string }[] } }>(
    t.url,
    alice.key,
    `query($f: DatasetFilterInput) { datasets(filter: $f, first: 50) { totalCount nodes { datasetName } } }`,
    { f: filter },
  );
  expect(res.errors).toBeUndefined();
  return {
    total: res.data!.datasets.totalCount,
    names: res.data!.datasets.nodes.map((n) => n.datasetName).sort(),
  };
};

const keywordFacet = async (filter: Record<string, unknown>) => {
  const res = await gql<{ datasetFacets: { keyword: Facet[] } }>(
    t.url,
    alice.key,
    `query($f: DatasetFilterInput) { datasetFacets(filter: $f) { keyword { value count } } }`,
    { f: filter },
  );
  expect(res.errors).toBeUndefined();
  return new Map(res.data!.datasetFacets.keyword.map((f) => [f.value, f.count]));
};

beforeAll(async () => {
  t = await startTestApp();
  alice = await makeUser(t.app);
  k = unique('Silicon');
  // one: k; two: k and k-wafer; three: k-wafer; four: K in capitals (the same keyword as k)
  const carrying: [string, string[]][] = [
    ['one', [k]],
    ['two', [k, `${k}-wafer`]],
    ['three', [`${k}-wafer`]],
    ['four', [k.toUpperCase()]],
  ];
  for (const [name, keywords] of carrying) {
    const made = await rest(t.url, 'POST', '/datasets', { key: alice.key, body: { dataset_name: name } });
    expect(made.status).toBe(201);
    for (const keyword of keywords) {
      const added = await rest(t.url, 'POST', `/datasets/${made.body.unique_id as string}/keywords`, {
        key: alice.key,
        body: { keyword },
      });
      expect(added.status).toBe(201);
    }
  }
});

afterAll(async () => {
  await t.close();
});

describe('keyword facets', () => {
  it('a facet value opens exactly its count, while the typed keyword stays forgiving', async () => {
    // the typed filter: a substring in any case
    expect(await list({ keyword: k.toLowerCase() })).toEqual({
      total: 4,
      names: ['four', 'one', 'three', 'two'],
    });
    const counts = await keywordFacet({ keyword: k.toLowerCase() });
    expect(counts.get(k)).toBe(3);
    expect(counts.get(`${k}-wafer`)).toBe(2);
    expect(counts.size).toBe(2);
    // each facet value, clicked: exactly its count
    for (const [value, count] of counts) {
      if (!value.toLowerCase().startsWith(k.toLowerCase())) continue;
      const opened = await list({ keywordExact: value });
      expect(opened.total).toBe(count);
      expect(opened.names).toHaveLength(count);
    }
    expect((await list({ keywordExact: k })).names).toEqual(['four', 'one', 'two']);
    // the whole keyword, in any case; never a part of one
    expect((await list({ keywordExact: k.toLowerCase() })).total).toBe(3);
    expect((await list({ keywordExact: k.slice(0, -1) })).total).toBe(0);
    expect((await list({ keyword: k.slice(0, -1) })).total).toBe(4);
  });

  it('narrows a search as the facets of that search count, and counts agree alone and combined', async () => {
    const counts = await keywordFacet({ keyword: k, keywordExact: `${k}-wafer` });
    expect(counts.get(k)).toBe(1);
    expect(counts.get(`${k}-wafer`)).toBe(2);
    expect((await list({ keyword: k, keywordExact: `${k}-wafer` })).names).toEqual(['three', 'two']);
    expect((await list({ keywordExact: `${k}-wafer`, datasetName: 'two' })).names).toEqual(['two']);
    // the facets of an exact keyword alone (the keyword tally's fast path) count the same
    expect((await keywordFacet({ keywordExact: k })).get(k)).toBe(3);
  });

  it('shows no one else’s datasets', async () => {
    const bob = await makeUser(t.app);
    const res = await gql<{ datasets: { totalCount: number } }>(
      t.url,
      bob.key,
      `query($f: DatasetFilterInput) { datasets(filter: $f) { totalCount } }`,
      { f: { keywordExact: k } },
    );
    expect(res.data?.datasets.totalCount).toBe(0);
  });
});
