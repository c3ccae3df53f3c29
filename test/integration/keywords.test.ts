import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { grant, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset } from '../support/catalog';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  [owner, stranger] = await Promise.all([makeUser(t.app), makeUser(t.app)]);
});
afterAll(() => t.close());

describe('keywords', () => {
  test('added one per request, listed with counts of readable datasets, used by the keyword filter', async () => {
    const kw = unique('Anneal');
    const a = await newDataset(t.url, owner.key);
    const b = await newDataset(t.url, owner.key);
    const hidden = await newDataset(t.url, stranger.key);
    const added = await rest(t.url, 'POST', `/datasets/${a}/keywords`, {
      key: owner.key,
      query: { keyword: kw },
    });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ keyword: kw, num_datasets: 1 });
    // case-insensitively the same keyword; adding it again is harmless
    await rest(t.url, 'POST', `/datasets/${b}/keywords`, {
      key: owner.key,
      query: { keyword: kw.toUpperCase() },
    });
    await rest(t.url, 'POST', `/datasets/${b}/keywords`, { key: owner.key, query: { keyword: kw } });
    await rest(t.url, 'POST', `/datasets/${hidden}/keywords`, { key: stranger.key, query: { keyword: kw } });
    const list = await rest(t.url, 'GET', `/datasets/${b}/keywords`, { key: owner.key });
    expect(list.body).toEqual([{ keyword: kw, num_datasets: 2 }]);
    const filtered = await rest(t.url, 'GET', '/datasets', {
      key: owner.key,
      query: { keyword: kw.slice(2, 8).toLowerCase(), limit: 1000 },
    });
    expect(filtered.body.items.map((d: { unique_id: string }) => d.unique_id).sort()).toEqual([a, b].sort());

    expect((await rest(t.url, 'POST', `/datasets/${a}/keywords`, { key: owner.key })).status).toBe(422);
    expect(
      (await rest(t.url, 'POST', `/datasets/${a}/keywords`, { key: stranger.key, query: { keyword: 'x' } }))
        .status,
    ).toBe(404);
    await grant(t.app, a, 'dataset', 'user', stranger.user.uniqueId, 'viewer');
    expect(
      (await rest(t.url, 'POST', `/datasets/${a}/keywords`, { key: stranger.key, query: { keyword: 'x' } }))
        .status,
    ).toBe(403);
  });

  test('GraphQL field and mutation', async () => {
    const ds = await newDataset(t.url, owner.key);
    const kw = unique('gql');
    const added = await gql(
      t.url,
      owner.key,
      `mutation($id: ID!, $k: String!) { addDatasetKeyword(id: $id, keyword: $k) { keyword numDatasets } }`,
      {
        id: ds,
        k: kw,
      },
    );
    expect(added.data.addDatasetKeyword).toEqual({ keyword: kw, numDatasets: 1 });
    const read = await gql(t.url, owner.key, `query($id: ID!) { dataset(id: $id) { keywords } }`, { id: ds });
    expect(read.data.dataset.keywords).toEqual([kw]);
  });
});
