import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, unique, type TestUser } from '../support/factories';
import { newDataset } from '../support/catalog';
import { rawQuery } from '../../src/core/db/raw';
import { newMfid } from '../../src/core/ids';
import { GRANTED_ID_LIST } from '../../src/modules/permission/access.service';

/**
 * Lists see the records granted to the caller the same way whether the grants are few (their
 * MFIDs listed in the query) or more than GRANTED_ID_LIST (a probe per row), and a grant or a
 * revocation in the same request is seen by what follows.
 */
let t: TestApp;
let owner: TestUser;
let reader: TestUser;
let granted: string;
let hidden: string;
const measurement = unique('m');

beforeAll(async () => {
  t = await startTestApp();
  [owner, reader] = await Promise.all([makeUser(t.app), makeUser(t.app)]);
  granted = await newDataset(t.url, owner.key, { dataset_name: 'granted', measurement });
  hidden = await newDataset(t.url, owner.key, { dataset_name: 'hidden', measurement });
  const g = await rest(t.url, 'PUT', `/resources/${granted}/access/users/${reader.user.uniqueId}`, {
    key: owner.key,
    body: { permission: 'viewer' },
  });
  expect(g.status).toBeLessThan(300);
});
afterAll(() => t.close());

const visible = async (key: string) => {
  const rest1 = await rest(t.url, 'GET', '/datasets', { key, query: { measurement } });
  const graph = await gql<any>(
    t.url,
    key,
    `query($m: String) { datasets(filter: { measurement: $m }) { totalCount nodes { uniqueId } } }`,
    {
      m: measurement,
    },
  );
  return {
    rest: rest1.body.items.map((d: { unique_id: string }) => d.unique_id),
    total: rest1.body.total,
    graphql: graph.data.datasets.nodes.map((d: { uniqueId: string }) => d.uniqueId),
    totalCount: graph.data.datasets.totalCount,
  };
};

test('few grants: the granted dataset is listed and counted, the other is not', async () => {
  expect(await visible(reader.key)).toEqual({ rest: [granted], total: 1, graphql: [granted], totalCount: 1 });
  t.queries.length = 0;
  await rest(t.url, 'GET', '/datasets', { key: reader.key, query: { measurement, text: 'granted' } });
  // the grants are looked up at most once for the request (and kept with the key for the
  // authentication cache's TTL); the visibility condition lists their MFIDs
  expect(
    t.queries.filter((q) => /from access_grant g where/.test(q) && /distinct/.test(q)).length,
  ).toBeLessThanOrEqual(1);
  expect(t.queries.some((q) => q.includes('or (d.unique_id in ($4))'))).toBe(true);
});

test('more grants than the list holds: the same answers through the per-row probe', async () => {
  const em = t.app.orm.em.fork();
  const others = Array.from({ length: GRANTED_ID_LIST + 1 }, () => newMfid());
  await rawQuery(
    em,
    `insert into access_grant (resource_id, resource_type, principal_type, principal_id, permission)
     select id, 'dataset', 'user', ?, 'viewer' from unnest(?::text[]) as t(id)`,
    [reader.user.uniqueId, `{${others.join(',')}}`],
  );
  t.queries.length = 0;
  expect(await visible(reader.key)).toEqual({ rest: [granted], total: 1, graphql: [granted], totalCount: 1 });
  expect(
    t.queries.some((q) => /exists \(select 1 from access_grant g where g.resource_id = d.unique_id/.test(q)),
  ).toBe(true);
  await rawQuery(em, 'delete from access_grant where resource_id in (?)', [others]);
});

test('a revocation is seen at once; the stranger never sees either', async () => {
  const stranger = await makeUser(t.app);
  expect((await visible(stranger.key)).rest).toEqual([]);
  const r = await rest(t.url, 'DELETE', `/resources/${granted}/access/users/${reader.user.uniqueId}`, {
    key: owner.key,
  });
  expect(r.status).toBeLessThan(300);
  expect(await visible(reader.key)).toEqual({ rest: [], total: 0, graphql: [], totalCount: 0 });
  expect(hidden).toBeDefined();
});
