import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { addMember, grant, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';
import type { Project } from '../../src/modules/project/project.entity';

let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let p1: Project;
let p2: Project;
const ds: Record<string, string> = {};
let session: string;

const list = (key: string, query: Record<string, string | string[]>) =>
  rest(t.url, 'GET', '/datasets', { key, query: { session_name: session, limit: '1000', ...query } });
const names = (body: { items: { unique_id: string }[] }) =>
  body.items.map((d) => Object.keys(ds).find((k) => ds[k] === d.unique_id)).sort();

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  alice = await makeUser(t.app);
  bob = await makeUser(t.app);
  carol = await makeUser(t.app);
  p1 = await makeProject(t.app, admin.user);
  p2 = await makeProject(t.app, admin.user);
  await addMember(t.app, p1, alice.user, 'contributor');
  await addMember(t.app, p2, alice.user, 'contributor');
  await addMember(t.app, p1, bob.user, 'viewer');
  session = unique('sel');
  const make = (key: string, body: Record<string, unknown>) =>
    newDataset(t.url, key, { session_name: session, ...body });
  ds.inP1 = await make(alice.key, { project_id: p1.projectId });
  ds.inP2 = await make(alice.key, { project_id: p2.projectId });
  ds.sharedWithP1 = await make(alice.key, { project_id: p2.projectId });
  await grant(t.app, ds.sharedWithP1, 'dataset', 'project', p1.uniqueId, 'viewer');
  ds.aliceOnly = await make(alice.key, {});
  ds.grantedToBob = await make(alice.key, {});
  await grant(t.app, ds.grantedToBob, 'dataset', 'user', bob.user.uniqueId, 'viewer');
  ds.carolOwn = await make(carol.key, {});
  ds.carolPublic = await make(carol.key, { public: true });
});
afterAll(() => t.close());

describe('accessible_to_user', () => {
  test('a platform admin inspects what another user may read, by MFID/ORCID, username or email', async () => {
    for (const id of [bob.user.uniqueId, bob.user.username!, bob.user.email!]) {
      const res = await list(admin.key, { accessible_to_user: id });
      expect(res.status).toBe(200);
      expect(names(res.body)).toEqual(['carolPublic', 'grantedToBob', 'inP1', 'sharedWithP1']);
      expect(res.body.total).toBe(4);
    }
    const both = await list(admin.key, { accessible_to_user: [bob.user.uniqueId, carol.user.uniqueId] });
    expect(names(both.body)).toEqual(['carolPublic']);
  });

  test('selectors only narrow what the caller may read', async () => {
    // carol inspects herself: her own records and the public one; alice's are not hers to see
    const self = await list(carol.key, { accessible_to_user: carol.user.username! });
    expect(names(self.body)).toEqual(['carolOwn', 'carolPublic']);
    // alice asks about herself: everything she reads, never carol's private record
    const mine = await list(alice.key, { accessible_to_user: alice.user.email!.toUpperCase() });
    expect(names(mine.body)).not.toContain('carolOwn');
  });

  test('inspecting another user needs platform admin (403); unknown users are 422 for admins', async () => {
    const denied = await list(alice.key, { accessible_to_user: bob.user.uniqueId });
    expect(denied.status).toBe(403);
    // the same answer whether or not the user exists
    expect((await list(alice.key, { accessible_to_user: 'no-such-user-s' })).status).toBe(403);
    const unknown = await list(admin.key, { accessible_to_user: 'no-such-user-s' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.fields[0].field).toBe('accessible_to_user');
  });
});

describe('accessible_to_project', () => {
  test('records assigned or granted to the project; members may inspect it', async () => {
    const res = await list(bob.key, { accessible_to_project: p1.projectId });
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['inP1', 'sharedWithP1']);
    const byMfid = await list(alice.key, { accessible_to_project: [p1.uniqueId, p2.projectId] });
    expect(names(byMfid.body)).toEqual(['sharedWithP1']);
    const combined = await list(admin.key, {
      accessible_to_project: p2.projectId,
      accessible_to_user: bob.user.uniqueId,
    });
    expect(names(combined.body)).toEqual(['sharedWithP1']);
  });

  test('non-members get 403; unknown projects 422; more than 10 selectors 422', async () => {
    expect((await list(bob.key, { accessible_to_project: p2.projectId })).status).toBe(403);
    expect((await list(carol.key, { accessible_to_project: p1.uniqueId })).status).toBe(403);
    const unknown = await list(admin.key, { accessible_to_project: 'no-such-project-s' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.fields[0].field).toBe('accessible_to_project');
    const many = await list(admin.key, {
      accessible_to_user: Array.from({ length: 6 }, () => admin.user.uniqueId + ' '),
      accessible_to_project: [p1.projectId, p2.projectId, p1.uniqueId, p2.uniqueId, 'a', 'b'],
    });
    expect(many.status).toBe(422);
    expect(many.body.detail).toMatch(/at most 10/);
    const ten = await list(admin.key, {
      accessible_to_project: [p1.projectId, p1.uniqueId, p2.projectId, p2.uniqueId],
      accessible_to_user: [admin.user.uniqueId],
    });
    expect(ten.status).toBe(200);
  });
});

describe('samples and projects', () => {
  test('the same selectors on the sample collection', async () => {
    const s1 = await newSample(t.url, alice.key, { project_id: p1.projectId, sample_name: session });
    const s2 = await newSample(t.url, alice.key, { project_id: p2.projectId, sample_name: session });
    const byProject = await rest(t.url, 'GET', '/samples', {
      key: alice.key,
      query: { sample_name: session, accessible_to_project: p1.projectId },
    });
    expect(byProject.body.items.map((s: { unique_id: string }) => s.unique_id)).toEqual([s1]);
    const byUser = await rest(t.url, 'GET', '/samples', {
      key: admin.key,
      query: { sample_name: session, accessible_to_user: bob.user.uniqueId },
    });
    expect(byUser.body.items.map((s: { unique_id: string }) => s.unique_id)).toEqual([s1]);
    expect(
      (
        await rest(t.url, 'GET', '/samples', {
          key: bob.key,
          query: { accessible_to_user: alice.user.uniqueId },
        })
      ).status,
    ).toBe(403);
    const gqlRes = await gql(
      t.url,
      alice.key,
      `query($n: String!, $p: [String!]) { samples(filter: { sampleName: $n, accessibleToProject: $p }) { totalCount } }`,
      { n: session, p: [p2.uniqueId] },
    );
    expect(gqlRes.data.samples.totalCount).toBe(1);
    expect(s2).toBeTruthy();
  });

  test('projects: those the user holds a role in, or the named ones', async () => {
    const res = await rest(t.url, 'GET', '/projects', {
      key: admin.key,
      query: { accessible_to_user: alice.user.uniqueId, limit: '1000' },
    });
    expect(res.status).toBe(200);
    expect(res.body.items.map((p: { unique_id: string }) => p.unique_id).sort()).toEqual(
      [p1.uniqueId, p2.uniqueId].sort(),
    );
    const both = await rest(t.url, 'GET', '/projects', {
      key: alice.key,
      query: { accessible_to_user: alice.user.uniqueId, accessible_to_project: p2.projectId },
    });
    expect(both.body.items.map((p: { unique_id: string }) => p.unique_id)).toEqual([p2.uniqueId]);
    expect(both.body.total).toBe(1);
    expect(
      (
        await rest(t.url, 'GET', '/projects', {
          key: bob.key,
          query: { accessible_to_project: p2.projectId },
        })
      ).status,
    ).toBe(403);
    const graph = await gql(
      t.url,
      bob.key,
      `query($u: [String!]) { projects(filter: { accessibleToUser: $u }) { totalCount nodes { uniqueId } } }`,
      { u: [bob.user.username] },
    );
    expect(graph.data.projects).toEqual({ totalCount: 1, nodes: [{ uniqueId: p1.uniqueId }] });
  });

  test('GraphQL datasets filter takes the selectors too', async () => {
    const res = await gql(
      t.url,
      admin.key,
      `query($s: String!, $u: [String!]) { datasets(filter: { sessionName: $s, accessibleToUser: $u }) { totalCount } }`,
      { s: session, u: [bob.user.email] },
    );
    expect(res.data.datasets.totalCount).toBe(4);
    const denied = await gql(
      t.url,
      bob.key,
      `query($u: [String!]) { datasets(filter: { accessibleToUser: $u }) { totalCount } }`,
      { u: [alice.user.uniqueId] },
    );
    expect(denied.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });
});
