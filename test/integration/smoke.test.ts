import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser } from '../support/factories';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test('health and an authenticated dataset round trip', async () => {
  const live = await rest(t.url, 'GET', '/health/live');
  expect(live.body).toEqual({ status: 'ok' });
  const admin = await makeUser(t.app, { admin: true });
  const created = await rest(t.url, 'POST', '/datasets', {
    key: admin.key,
    body: { dataset_name: 'first', public: false },
  });
  expect(created.status).toBe(201);
  const read = await rest(t.url, 'GET', `/datasets/${created.body.unique_id}`, { key: admin.key });
  expect(read.body.dataset_name).toBe('first');
  const list = await gql(
    t.url,
    admin.key,
    '{ datasets(first: 5) { totalCount nodes { uniqueId owner { username } } } }',
  );
  expect(list.errors).toBeUndefined();
  expect(list.data.datasets.nodes.length).toBeGreaterThan(0);
});
