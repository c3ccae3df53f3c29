import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { grant, makeUser, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';

let t: TestApp;
let owner: TestUser;
let viewer: TestUser;
let manager: TestUser;
let stranger: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  [owner, viewer, manager, stranger, admin] = await Promise.all([
    makeUser(t.app),
    makeUser(t.app),
    makeUser(t.app),
    makeUser(t.app),
    makeUser(t.app, { admin: true }),
  ]);
});
afterAll(() => t.close());

const history = (id: string, key: string, query: Record<string, string> = {}) =>
  rest(t.url, 'GET', `/resources/${id}/history`, { key, query });

describe('history', () => {
  test('REST: who did what and when, newest first, paged, for admins on the resource only', async () => {
    const id = await newDataset(t.url, owner.key, { dataset_name: 'first' });
    await rest(t.url, 'PATCH', `/datasets/${id}`, { key: owner.key, body: { dataset_name: 'second' } });
    await grant(t.app, id, 'dataset', 'user', viewer.user.uniqueId, 'viewer');
    await grant(t.app, id, 'dataset', 'user', manager.user.uniqueId, 'admin');
    await rest(t.url, 'PATCH', `/datasets/${id}`, { key: manager.key, body: { measurement: 'SEM' } });

    const all = await history(id, owner.key);
    expect(all.status).toBe(200);
    expect(all.body.next_cursor).toBeNull();
    expect(all.body.items.map((e: { type: string }) => e.type)).toEqual([
      'dataset.updated',
      'dataset.updated',
      'dataset.created',
    ]);
    expect(all.body.items[0]).toMatchObject({
      actor_id: manager.user.uniqueId,
      resource_id: id,
      resource_type: 'dataset',
      payload: { changes: { measurement: { from: null, to: 'SEM' } } },
    });
    expect(all.body.items[1].payload).toEqual({
      changes: { datasetName: { from: 'first', to: 'second' } },
    });
    expect(Date.parse(all.body.items[2].time)).not.toBeNaN();

    const first = await history(id, manager.key, { limit: '2' });
    expect(first.body.items).toHaveLength(2);
    const rest2 = await history(id, manager.key, { limit: '2', cursor: first.body.next_cursor });
    expect(rest2.body.items.map((e: { type: string }) => e.type)).toEqual(['dataset.created']);
    expect(rest2.body.next_cursor).toBeNull();

    expect((await history(id, viewer.key)).status).toBe(403);
    // unreadable is indistinguishable from missing
    const hidden = await history(id, stranger.key);
    const missing = await history('0000000000000000000000000w', stranger.key);
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(hidden.body.detail.replace(id, 'X')).toBe(
      missing.body.detail.replace('0000000000000000000000000w', 'X'),
    );
    expect((await history(id, admin.key)).status).toBe(200);
    expect((await history(id, owner.key, { cursor: 'nonsense' })).status).toBe(422);
  });

  test('survives removal: platform admins read a removed resource history, nobody else', async () => {
    const id = await newDataset(t.url, owner.key);
    const removed = await rest(t.url, 'DELETE', `/resources/${id}`, {
      key: admin.key,
      query: { force: 'true' },
    });
    expect(removed.status).toBeLessThan(300);
    const seen = await history(id, admin.key);
    expect(seen.status).toBe(200);
    expect(seen.body.items.map((e: { type: string }) => e.type)).toEqual([
      'resource.removed',
      'dataset.created',
    ]);
    expect((await history(id, owner.key)).status).toBe(404);
  });

  test('GraphQL: a history connection on datasets, null for readers without admin', async () => {
    const id = await newDataset(t.url, owner.key);
    await grant(t.app, id, 'dataset', 'user', viewer.user.uniqueId, 'viewer');
    await rest(t.url, 'POST', `/datasets/${id}/keywords`, { key: owner.key, query: { keyword: 'hist' } });
    const q = `query($id: ID!) { dataset(id: $id) { history(first: 10) { totalCount edges { node { type actorId payload } } } } }`;
    const mine = await gql(t.url, owner.key, q, { id });
    expect(mine.errors).toBeUndefined();
    expect(mine.data.dataset.history.totalCount).toBe(2);
    expect(mine.data.dataset.history.edges[0].node).toEqual({
      type: 'keyword.added',
      actorId: owner.user.uniqueId,
      payload: { keyword: 'hist' },
    });
    const theirs = await gql(t.url, viewer.key, q, { id });
    expect(theirs.errors).toBeUndefined();
    expect(theirs.data.dataset.history).toBeNull();
    const byId = await gql(
      t.url,
      admin.key,
      `query($id: ID!) { resourceHistory(id: $id, first: 1) { edges { node { type } } pageInfo { hasNextPage } } }`,
      { id },
    );
    expect(byId.data.resourceHistory).toEqual({
      edges: [{ node: { type: 'keyword.added' } }],
      pageInfo: { hasNextPage: true },
    });
    const refused = await gql(
      t.url,
      stranger.key,
      `query($id: ID!) { resourceHistory(id: $id) { totalCount } }`,
      { id },
    );
    expect(refused.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  test('GraphQL: project history shows member changes', async () => {
    const created = await gql(
      t.url,
      admin.key,
      `mutation($i: CreateProjectInput!) { createProject(input: $i) { uniqueId projectId } }`,
      { i: { projectId: `hist-${Date.now()}`, title: 'History', projectLead: owner.user.uniqueId } },
    );
    if (created.errors) throw new Error(JSON.stringify(created.errors));
    const project = created.data.createProject;
    const added = await rest(t.url, 'POST', `/projects/${project.projectId}/users/${viewer.user.uniqueId}`, {
      key: owner.key,
    });
    expect(added.status).toBeLessThan(300);
    const read = await gql(
      t.url,
      owner.key,
      `query($id: String!) { project(id: $id) { history { nodes { type payload } } } }`,
      { id: project.uniqueId },
    );
    expect(read.errors).toBeUndefined();
    expect(read.data.project.history.nodes[0]).toEqual({
      type: 'project.members_changed',
      payload: { changes: [{ user_id: viewer.user.uniqueId, from: null, to: 'contributor' }] },
    });
  });
});

describe('references to records the reader may not read', () => {
  interface Entry {
    type: string;
    payload: Record<string, unknown>;
  }
  const links = (entries: Entry[]) =>
    entries.filter((e) => e.type === 'link.added').map((e) => [e.payload.parent_id, e.payload.child_id]);
  const ok = async (res: Promise<{ status: number; body: unknown }>) => {
    const r = await res;
    if (r.status >= 300) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  };

  test("links to carol's private records stay in bob's history without their MFIDs", async () => {
    const [bob, carol] = await Promise.all([makeUser(t.app), makeUser(t.app)]);
    const ds = await newDataset(t.url, bob.key);
    const bobSample = await newSample(t.url, bob.key);
    const hiddenSample = await newSample(t.url, carol.key);
    const hiddenDataset = await newDataset(t.url, carol.key);
    // carol may link to bob's records (contribute), and read their history (admin)
    await grant(t.app, ds, 'dataset', 'user', carol.user.uniqueId, 'admin');
    await grant(t.app, bobSample, 'sample', 'user', carol.user.uniqueId, 'admin');
    await ok(rest(t.url, 'POST', `/datasets/${ds}/samples/${hiddenSample}`, { key: carol.key }));
    await ok(
      rest(t.url, 'POST', '/resources/links', {
        key: carol.key,
        body: { parent_mfid: hiddenDataset, child_mfid: ds },
      }),
    );
    await ok(
      rest(t.url, 'POST', '/resources/links', {
        key: carol.key,
        body: { parent_mfid: hiddenSample, child_mfid: bobSample },
      }),
    );
    await ok(rest(t.url, 'POST', `/datasets/${ds}/samples/${bobSample}`, { key: bob.key }));
    const hidden = [hiddenSample, hiddenDataset];
    const leaks = (body: unknown) => hidden.filter((id) => JSON.stringify(body).includes(id));

    const bobRest = await history(ds, bob.key);
    expect(bobRest.status).toBe(200);
    expect(leaks(bobRest.body)).toEqual([]);
    // newest first: bob's own sample is named, carol's dataset and sample are null
    expect(links(bobRest.body.items)).toEqual([
      [bobSample, ds],
      [null, ds],
      [null, ds],
    ]);
    expect(bobRest.body.items[2].payload).toEqual({
      kind: 'sample_dataset',
      parent_id: null,
      parent_type: 'sample',
      child_id: ds,
      child_type: 'dataset',
      relationship_type: null,
    });

    const nodes = '{ nodes { type payload } }';
    const q = `query($ds: ID!, $s: ID!) {
      resourceHistory(id: $ds) ${nodes}
      dataset(id: $ds) { history ${nodes} }
      sample(id: $s) { history ${nodes} }
    }`;
    const bobGql = await gql(t.url, bob.key, q, { ds, s: bobSample });
    expect(bobGql.errors).toBeUndefined();
    expect(leaks(bobGql.data)).toEqual([]);
    expect(links(bobGql.data.resourceHistory.nodes)).toEqual(links(bobRest.body.items));
    expect(links(bobGql.data.dataset.history.nodes)).toEqual(links(bobRest.body.items));
    expect(links(bobGql.data.sample.history.nodes)).toEqual([[null, bobSample]]);

    // who may read the records sees them named
    for (const reader of [carol, admin]) {
      const seen = await history(ds, reader.key);
      expect(links(seen.body.items)).toEqual([
        [bobSample, ds],
        [hiddenDataset, ds],
        [hiddenSample, ds],
      ]);
      const viaGql = await gql(t.url, reader.key, q, { ds, s: bobSample });
      expect(viaGql.errors).toBeUndefined();
      expect(links(viaGql.data.dataset.history.nodes)).toEqual(links(seen.body.items));
      expect(links(viaGql.data.sample.history.nodes)).toEqual([[hiddenSample, bobSample]]);
    }
  });

  test('the references of a page are checked in one statement', async () => {
    const [bob, carol] = await Promise.all([makeUser(t.app), makeUser(t.app)]);
    const ds = await newDataset(t.url, bob.key);
    await grant(t.app, ds, 'dataset', 'user', carol.user.uniqueId, 'contributor');
    const statements = async () => {
      await history(ds, bob.key); // warm-up outside the count
      t.queries.length = 0;
      expect((await history(ds, bob.key)).status).toBe(200);
      return t.queries.length;
    };
    await ok(
      rest(t.url, 'POST', `/datasets/${ds}/samples/${await newSample(t.url, carol.key)}`, { key: carol.key }),
    );
    const one = await statements();
    for (const linker of [bob, carol, carol]) {
      const sample = await newSample(t.url, linker.key);
      await ok(rest(t.url, 'POST', `/datasets/${ds}/samples/${sample}`, { key: linker.key }));
    }
    expect(await statements()).toBe(one);
  });
});

describe('purging history', () => {
  test('platform admins purge events before a time; others may not; bad input is a 422', async () => {
    const id = await newDataset(t.url, owner.key);
    expect(
      (await rest(t.url, 'DELETE', '/events', { key: owner.key, query: { before: '2100-01-01' } })).status,
    ).toBe(403);
    expect(
      (await rest(t.url, 'DELETE', '/events', { key: admin.key, query: { before: 'soon' } })).status,
    ).toBe(422);
    // nothing is that old: nothing goes
    const none = await rest(t.url, 'DELETE', '/events', {
      key: admin.key,
      query: { before: '2000-01-01T00:00:00Z' },
    });
    expect(none.body).toEqual({ purged: 0 });
    expect((await history(id, owner.key)).body.items).toHaveLength(1);
  });
});
