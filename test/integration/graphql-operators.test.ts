import { startTestApp, type TestApp } from '../support/app';
import { gql, rest, type GqlReply } from '../support/http';
import { makeUser, unique, type TestUser } from '../support/factories';
import { newDataset } from '../support/catalog';

/**
 * GraphQL for two 3.2 client surfaces, by the rules of their REST routes: the service accounts
 * of an instrument (`Instrument.serviceAccounts`, `bind`/`unbindInstrumentServiceAccount`;
 * docs/access-control.md §5a) and `scope`/`sort`/`direction` on `deletionRequests`.
 */
let t: TestApp;
let admin: TestUser;
let owner: TestUser;
let maintainer: TestUser;
let stranger: TestUser;
let sa: TestUser;
let instrument: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  [owner, maintainer, stranger] = await Promise.all([makeUser(t.app), makeUser(t.app), makeUser(t.app)]);
  sa = await makeUser(t.app, { serviceAccount: true });
  const made = await rest(t.url, 'POST', '/instruments', {
    key: admin.key,
    body: { instrument_name: unique('Operated'), instrument_id: unique('op'), owner: owner.user.uniqueId },
  });
  instrument = made.body.unique_id as string;
  await rest(t.url, 'PUT', `/resources/${instrument}/access/users/${maintainer.user.uniqueId}`, {
    key: owner.key,
    body: { permission: 'editor' },
  });
}, 60_000);
afterAll(() => t.close());

const BIND = `mutation($id: String!, $sa: String!) {
  bindInstrumentServiceAccount(id: $id, serviceAccount: $sa) { role user { uniqueId } } }`;
const UNBIND = `mutation($id: String!, $sa: String!) {
  unbindInstrumentServiceAccount(id: $id, serviceAccount: $sa) { role user { uniqueId } } }`;
const LIST = `query($id: String!) { instrument(id: $id) { serviceAccounts { role user { uniqueId } } } }`;

describe('instrument service accounts in GraphQL', () => {
  test('bind, list and unbind as the REST routes do; the account then reaches the datasets', async () => {
    const ds = await newDataset(t.url, owner.key, { instrument_mfid: instrument });
    const reads = async () =>
      (await gql(t.url, sa.key, `{ dataset(id: "${ds}") { uniqueId } }`)).errors?.[0]?.extensions?.code ??
      'ok';
    expect(await reads()).toBe('NOT_FOUND');
    const bound = await gql(t.url, owner.key, BIND, { id: instrument, sa: sa.user.username });
    expect(bound.errors).toBeUndefined();
    expect(bound.data.bindInstrumentServiceAccount).toEqual([
      { role: 'editor', user: { uniqueId: sa.user.uniqueId } },
    ]);
    const rest3 = await rest(t.url, 'GET', `/instruments/${instrument}/service_accounts`, {
      key: owner.key,
      version: 3,
    });
    expect(rest3.body).toEqual([expect.objectContaining({ unique_id: sa.user.uniqueId, role: 'editor' })]);
    const listed = await gql(t.url, owner.key, LIST, { id: instrument });
    expect(listed.data.instrument.serviceAccounts).toEqual([
      { role: 'editor', user: { uniqueId: sa.user.uniqueId } },
    ]);
    // only those who manage the instrument see the list (an editor maintainer does not)
    expect(
      (await gql(t.url, maintainer.key, LIST, { id: instrument })).data.instrument.serviceAccounts,
    ).toBeNull();
    expect(await reads()).toBe('ok');
    const unbound = await gql(t.url, owner.key, UNBIND, { id: instrument, sa: sa.user.uniqueId });
    expect(unbound.data.unbindInstrumentServiceAccount).toEqual([]);
    expect(await reads()).toBe('NOT_FOUND');
  });

  test('the same refusals: a person, nobody, an editor maintainer, a stranger, unbinding twice', async () => {
    const code = async (key: string, doc: string, account: string) =>
      (await gql(t.url, key, doc, { id: instrument, sa: account })).errors?.[0]?.extensions?.code;
    expect(await code(owner.key, BIND, stranger.user.uniqueId)).toBe('BAD_USER_INPUT');
    expect(await code(owner.key, BIND, unique('nobody'))).toBe('NOT_FOUND');
    expect(await code(maintainer.key, BIND, sa.user.uniqueId)).toBe('FORBIDDEN');
    expect(await code(stranger.key, BIND, sa.user.uniqueId)).toBe('FORBIDDEN');
    expect(await code(owner.key, UNBIND, sa.user.uniqueId)).toBe('NOT_FOUND');
    const none = await rest(t.url, 'GET', `/instruments/${instrument}/service_accounts`, { key: owner.key });
    expect(none.body).toEqual([]);
  });
});

describe('deletionRequests(scope, sort, direction)', () => {
  test('answers as GET /deletion_requests does', async () => {
    const names = ['b', 'a', 'c'].map((n) => `${unique('del')}-${n}`);
    for (const name of names) {
      const ds = await newDataset(t.url, owner.key, { dataset_name: name });
      const asked = await rest(t.url, 'POST', `/resources/${ds}/delete`, {
        key: owner.key,
        body: { reason: 'test' },
      });
      expect(asked.status).toBeLessThan(300);
    }
    const Q = `query($scope: DeletionRequestScope, $sort: DeletionRequestSort, $direction: DeletionSortDirection) {
      deletionRequests(first: 100, scope: $scope, sort: $sort, direction: $direction) {
        totalCount edges { node { resourceName } } } }`;
    const mine = (r: GqlReply) =>
      (r.data.deletionRequests.edges as { node: { resourceName: string } }[])
        .map((e) => e.node.resourceName)
        .filter((n) => names.includes(n));
    for (const direction of ['asc', 'desc'] as const) {
      const g = await gql(t.url, owner.key, Q, { scope: 'submitted', sort: 'resource_name', direction });
      expect(g.errors).toBeUndefined();
      const r = await rest(t.url, 'GET', '/deletion_requests', {
        key: owner.key,
        version: 3,
        query: { scope: 'submitted', sort: 'resource_name', direction, limit: 100 },
      });
      const sorted = [...names].sort();
      expect(mine(g)).toEqual(direction === 'asc' ? sorted : sorted.reverse());
      expect(mine(g)).toEqual(
        (r.body.items as { resource_name: string }[])
          .map((i) => i.resource_name)
          .filter((n) => names.includes(n)),
      );
      expect(g.data.deletionRequests.totalCount).toBe(r.body.total);
    }
    // reviewable: pending requests for an administrator, none for anyone else
    const adminReviewable = await gql(t.url, admin.key, Q, { scope: 'reviewable' });
    expect(mine(adminReviewable).sort()).toEqual([...names].sort());
    expect((await gql(t.url, owner.key, Q, { scope: 'reviewable' })).data.deletionRequests.totalCount).toBe(
      0,
    );
    // a stranger's submitted list holds nothing of the owner's
    expect((await gql(t.url, stranger.key, Q, { scope: 'submitted' })).data.deletionRequests.totalCount).toBe(
      0,
    );
    // direction without sort, or an unknown value, is refused
    const lone = await gql(t.url, owner.key, Q, { direction: 'asc' });
    expect(lone.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const bad = await gql(t.url, owner.key, Q, { sort: 'colour' });
    expect(bad.errors).toBeDefined();
  });
});
