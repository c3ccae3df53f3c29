import { startTestApp, type TestApp } from '../support/app';
import { makeProject, makeUser, type TestUser } from '../support/factories';
import { gql, rest } from '../support/http';
import { newDataset } from '../support/catalog';
import { rawQuery } from '../../src/core/db/raw';
import { formUpload } from '../support/files';

/**
 * Every list a caller can make grow is bounded: graphs are cut at GRAPH_MAX_NODES and say so,
 * links page, keywords and grants have a cap per record, and the complexity estimate charges
 * each list by the cap it really has.
 */
let t: TestApp;
let alice: TestUser;
let parent: string;
let children: string[];
let projectSlug: string;

const N = 14; // children of `parent`; GRAPH_MAX_NODES is 10 here

beforeAll(async () => {
  t = await startTestApp({ GRAPH_MAX_NODES: '10' });
  alice = await makeUser(t.app);
  const project = await makeProject(t.app, alice.user);
  projectSlug = project.projectId;
  parent = await newDataset(t.url, alice.key, { project_id: project.projectId });
  children = [];
  for (let i = 0; i < N; i++)
    children.push(await newDataset(t.url, alice.key, { project_id: project.projectId }));
  const em = t.app.orm.em.fork();
  for (const c of children) {
    await rawQuery(em, 'insert into dataset_link (parent_mfid, child_mfid) values (?, ?)', [parent, c]);
  }
});
afterAll(() => t.close());

describe('graphs are cut at GRAPH_MAX_NODES, say so and page (graph-pages.test.ts)', () => {
  test('GraphQL entityGraph and projectGraph', async () => {
    const q = `query($id: ID!, $p: String!) {
      entityGraph(id: $id) { truncated nodes { id depth } edges { source target } }
      projectGraph(project: $p) { truncated nodes { id } edges { source } } }`;
    const res = await gql(t.url, alice.key, q, { id: parent, p: projectSlug });
    expect(res.errors).toBeUndefined();
    const g = res.data.entityGraph;
    expect(g.truncated).toBe(true);
    expect(g.nodes).toHaveLength(10);
    expect(g.nodes[0]).toEqual({ id: parent, depth: 0 }); // nearest first
    expect(g.edges).toHaveLength(9); // the edges between the nodes kept
    expect(res.data.projectGraph.truncated).toBe(true);
    expect(res.data.projectGraph.nodes).toHaveLength(10);

    const small = await gql(
      t.url,
      alice.key,
      `{ entityGraph(id: "${children[0]}", direction: descendants) { truncated nodes { id } } }`,
    );
    expect(small.data.entityGraph).toEqual({ truncated: false, nodes: [{ id: children[0] }] });
  });

  test('REST node-link: graph attributes carry truncated only when cut', async () => {
    const cut = await rest(t.url, 'GET', `/entity_graph_cte/${parent}`, {
      key: alice.key,
      query: { recursive: 'True' },
    });
    expect(cut.status).toBe(200);
    expect(cut.body.graph).toEqual({ truncated: true, next: expect.any(String) });
    expect(cut.body.nodes).toHaveLength(10);
    const whole = await rest(t.url, 'GET', `/entity_graph_cte/${children[1]}`, { key: alice.key });
    expect(whole.body.graph).toEqual({});
    expect(whole.body.nodes).toHaveLength(2);
    const project = await rest(t.url, 'GET', `/project_graph/${projectSlug}`, { key: alice.key });
    expect(project.body.graph).toEqual({ truncated: true, next: expect.any(String) });
    expect(project.body.nodes).toHaveLength(10);
  });

  test('the complexity estimate charges graph nodes by GRAPH_MAX_NODES', async () => {
    // 10 nodes here: a document nesting a graph under a 1000-item page costs 1000 * 10 * ...
    const q = `{ datasets(first: 1000) { nodes { uniqueId } } entityGraph(id: "${parent}") { nodes { id name depth } } }`;
    expect((await gql(t.url, alice.key, q)).errors).toBeUndefined();
    const heavy = await startTestApp({ GRAPH_MAX_NODES: '200000' });
    try {
      const key = (await makeUser(heavy.app)).key;
      const res = await gql(heavy.url, key, `{ entityGraph(id: "${parent}") { nodes { id name depth } } }`);
      expect(res.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
    } finally {
      await heavy.close();
    }
  });
});

describe('links page', () => {
  test('Query.links: first and offset', async () => {
    const q = `query($id: ID!, $f: Int, $o: Int) { links(id: $id, first: $f, offset: $o) { uniqueId } }`;
    const all = await gql(t.url, alice.key, q, { id: parent });
    expect(all.data.links).toHaveLength(N);
    const page = await gql(t.url, alice.key, q, { id: parent, f: 5, o: 10 });
    expect(page.data.links.map((l: { uniqueId: string }) => l.uniqueId)).toEqual(
      all.data.links.slice(10).map((l: { uniqueId: string }) => l.uniqueId),
    );
    const tooMany = await gql(t.url, alice.key, q, { id: parent, f: 5000 });
    expect(tooMany.errors?.[0].extensions?.code).toMatch(/BAD_USER_INPUT|QUERY_TOO_COMPLEX/);
  });

  test('REST /resources/{id}/links: the whole list by default, a page with limit and offset', async () => {
    const all = await rest(t.url, 'GET', `/resources/${parent}/links`, { key: alice.key });
    expect(all.body).toHaveLength(N);
    const page = await rest(t.url, 'GET', `/resources/${parent}/links`, {
      key: alice.key,
      query: { limit: 4, offset: 12 },
    });
    expect(page.body.map((l: { unique_id: string }) => l.unique_id)).toEqual(
      all.body.slice(12).map((l: { unique_id: string }) => l.unique_id),
    );
  });
});

describe("a dataset's files page", () => {
  test('REST files and download_links: every file by default, a page with limit and offset', async () => {
    const ds = await newDataset(t.url, alice.key);
    const names = ['a.txt', 'b.txt', 'c.txt'];
    for (const name of names) {
      const up = await formUpload(t.url, alice.key, ds, [{ name, data: Buffer.from(`content of ${name}`) }]);
      expect(up.status).toBe(201);
    }
    const get = (path: string, query?: Record<string, string>) =>
      rest(t.url, 'GET', `/datasets/${ds}/${path}`, { key: alice.key, query });
    const all = await get('files');
    expect(all.status).toBe(200);
    const ids = (all.body as { mfid: string }[]).map((f) => f.mfid);
    expect(ids).toHaveLength(3);
    const first = await get('files', { limit: '2' });
    const rest2 = await get('files', { limit: '2', offset: '2' });
    expect([...first.body, ...rest2.body].map((f: { mfid: string }) => f.mfid)).toEqual(ids);
    expect(first.body).toHaveLength(2);

    const links = await get('download_links');
    expect(Object.keys(links.body as object).sort()).toEqual([...ids].sort());
    const page1 = await get('download_links', { limit: '2' });
    const page2 = await get('download_links', { limit: '2', offset: '2' });
    expect(Object.keys(page1.body as object)).toHaveLength(2);
    expect(Object.keys(page2.body as object)).toHaveLength(1);
    expect([...Object.keys(page1.body as object), ...Object.keys(page2.body as object)].sort()).toEqual(
      [...ids].sort(),
    );
    expect((await get('download_links', { limit: '0' })).status).toBe(422);
  });
});

describe('caps per record', () => {
  test('a dataset carries at most 100 keywords', async () => {
    const ds = await newDataset(t.url, alice.key);
    const em = t.app.orm.em.fork();
    await rawQuery(
      em,
      `insert into keyword (text) select 'cap-kw-' || i from generate_series(1, 100) i
       on conflict ((lower(text))) do nothing`,
    );
    await rawQuery(
      em,
      `insert into dataset_keyword (dataset_mfid, keyword_id)
       select ?, id from keyword where text like 'cap-kw-%' order by id limit 99`,
      [ds],
    );
    const hundredth = await rest(t.url, 'POST', `/datasets/${ds}/keywords`, {
      key: alice.key,
      query: { keyword: 'last one' },
    });
    expect(hundredth.status).toBe(201);
    const again = await rest(t.url, 'POST', `/datasets/${ds}/keywords`, {
      key: alice.key,
      query: { keyword: 'Last One' },
    });
    expect(again.status).toBeLessThan(300); // already there: idempotent, not refused
    const over = await rest(t.url, 'POST', `/datasets/${ds}/keywords`, {
      key: alice.key,
      query: { keyword: 'one too many' },
    });
    expect(over.status).toBe(409);
    expect(over.body.detail).toMatch(/at most|already has 100 keywords/);
    const list = await rest(t.url, 'GET', `/datasets/${ds}/keywords`, { key: alice.key });
    expect(list.body).toHaveLength(100);
    const g = await gql(t.url, alice.key, `{ dataset(id: "${ds}") { keywords } }`);
    expect(g.data.dataset.keywords).toHaveLength(100);
  });

  test('a resource holds at most 100 grants; changing an existing grant still works', async () => {
    const ds = await newDataset(t.url, alice.key);
    const em = t.app.orm.em.fork();
    await rawQuery(
      em,
      `insert into access_grant (resource_id, resource_type, principal_type, principal_id, permission)
       select ?, 'dataset', 'group', 'cap-group-' || i, 'viewer' from generate_series(1, 99) i`,
      [ds],
    );
    const [bob, carol] = [await makeUser(t.app), await makeUser(t.app)];
    const put = (who: TestUser, permission: string) =>
      rest(t.url, 'PUT', `/resources/${ds}/access/users/${who.user.uniqueId}`, {
        key: alice.key,
        body: { permission },
      });
    expect((await put(bob, 'viewer')).status).toBe(200);
    const refused = await put(carol, 'viewer');
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/already has 100 grants/);
    const after = await rest(t.url, 'GET', `/resources/${ds}/access`, { key: alice.key });
    expect(JSON.stringify(after.body)).not.toContain(carol.user.uniqueId);
    const changed = await put(bob, 'editor');
    expect(changed.status).toBe(200);
    const g = await gql(t.url, alice.key, `{ resourceAccess(id: "${ds}") { grants { principalId } } }`);
    expect(g.data.resourceAccess.grants).toHaveLength(100);
  });

  test('a user belongs to at most 1000 projects', async () => {
    const em = t.app.orm.em.fork();
    const bob = await makeUser(t.app);
    const tag = bob.user.uniqueId.slice(-8);
    // 1000 projects of alice's; bob is a member of the first 999
    await rawQuery(
      em,
      `insert into project (unique_id, project_id, owner_id)
       select 'cp' || ? || lpad(i::text, 16, '0'), 'cap-' || ? || '-' || i, ? from generate_series(1, 1000) i`,
      [tag, tag, alice.user.uniqueId],
    );
    await rawQuery(
      em,
      `insert into project_member (project_mfid, user_id, role)
       select 'cp' || ? || lpad(i::text, 16, '0'), ?, 'viewer' from generate_series(1, 999) i`,
      [tag, bob.user.uniqueId],
    );
    const add = (slug: string) =>
      rest(t.url, 'POST', `/projects/${slug}/users/${bob.user.uniqueId}`, { key: alice.key });
    expect((await add(`cap-${tag}-1000`)).status).toBeLessThan(300); // the 1000th
    const other = await makeProject(t.app, alice.user);
    const refused = await add(other.projectId);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/already belongs to 1000 projects/);
    const count = await rawQuery<{ n: number }>(
      em,
      'select count(*)::int as n from project_member where user_id = ?',
      [bob.user.uniqueId],
    );
    expect(count[0].n).toBe(1000);
  });

  test('a project has at most 1000 members', async () => {
    const project = await makeProject(t.app, alice.user);
    const em = t.app.orm.em.fork();
    const tag = project.uniqueId.slice(-8);
    await rawQuery(
      em,
      `insert into app_user (unique_id) select 'cap-' || ? || '-' || i from generate_series(1, 999) i`,
      [tag],
    );
    await rawQuery(
      em,
      `insert into project_member (project_mfid, user_id, role)
       select ?, 'cap-' || ? || '-' || i, 'viewer' from generate_series(1, 999) i`,
      [project.uniqueId, tag],
    );
    const [bob, carol] = [await makeUser(t.app), await makeUser(t.app)];
    const add = (who: TestUser) =>
      rest(t.url, 'POST', `/projects/${project.projectId}/users/${who.user.uniqueId}`, { key: alice.key });
    expect((await add(bob)).status).toBeLessThan(300);
    const refused = await add(carol);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/already has 1000 members/);
    const role = await rest(t.url, 'POST', `/projects/${project.projectId}/users/${bob.user.uniqueId}`, {
      key: alice.key,
      query: { role: 'editor' },
    });
    expect(role.status).toBeLessThan(300); // a member's role still changes
    const count = await rawQuery<{ n: number }>(
      em,
      'select count(*)::int as n from project_member where project_mfid = ?',
      [project.uniqueId],
    );
    expect(count[0].n).toBe(1000);
  });
});
