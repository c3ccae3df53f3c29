import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { addMember, grant, makeProject, makeUser, randomOrcid, type TestUser } from '../support/factories';
import type { Project } from '../../src/modules/project/project.entity';

let t: TestApp;
let admin: TestUser;
let lead: TestUser;
let manager: TestUser;
let alice: TestUser;
let bob: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  lead = await makeUser(t.app, { orcid: randomOrcid() });
  manager = await makeUser(t.app, { orcid: randomOrcid() });
  alice = await makeUser(t.app, { orcid: randomOrcid() });
  bob = await makeUser(t.app, { orcid: randomOrcid() });
  stranger = await makeUser(t.app);
});
afterAll(() => t.close());

const ids = (list: { unique_id: string; role: string }[]) => list.map((m) => [m.unique_id, m.role]);

describe('project members', () => {
  let project: Project;
  beforeAll(async () => {
    project = await makeProject(t.app, lead.user);
    await addMember(t.app, project, manager.user, 'admin');
  });
  const users = (suffix = '') => `/projects/${project.projectId}/users${suffix}`;

  test('add by ORCID, username or email; change role; remove; each returns the complete list', async () => {
    const added = await rest(t.url, 'POST', users(`/${alice.user.uniqueId}`), { key: lead.key });
    expect(added.status).toBe(200);
    expect(ids(added.body)).toEqual([
      [manager.user.uniqueId, 'admin'],
      [alice.user.uniqueId, 'contributor'],
    ]);
    expect(added.body[1]).toEqual({
      unique_id: alice.user.uniqueId,
      username: alice.user.username,
      first_name: 'Test',
      last_name: alice.user.lastName,
      orcid: alice.user.uniqueId,
      is_service_account: false,
      role: 'contributor',
    });
    const byName = await rest(t.url, 'POST', users(`/${bob.user.username}`), {
      key: manager.key,
      query: { role: 'viewer' },
    });
    expect(ids(byName.body)).toContainEqual([bob.user.uniqueId, 'viewer']);
    const changed = await rest(t.url, 'PATCH', users(`/${encodeURIComponent(bob.user.email!)}`), {
      key: lead.key,
      body: { role: 'editor' },
    });
    expect(ids(changed.body)).toContainEqual([bob.user.uniqueId, 'editor']);
    // adding again without a role keeps the role
    const again = await rest(t.url, 'POST', users(`/${bob.user.uniqueId}`), { key: lead.key });
    expect(ids(again.body)).toContainEqual([bob.user.uniqueId, 'editor']);
    const removed = await rest(t.url, 'DELETE', users(`/${bob.user.uniqueId}`), { key: lead.key });
    expect(removed.status).toBe(200);
    expect(ids(removed.body)).toEqual([
      [manager.user.uniqueId, 'admin'],
      [alice.user.uniqueId, 'contributor'],
    ]);
    expect((await rest(t.url, 'DELETE', users(`/${bob.user.uniqueId}`), { key: lead.key })).status).toBe(404);
  });

  test('the literal me route names the target by email or username', async () => {
    const add = await rest(t.url, 'POST', users('/me'), { key: lead.key, query: { email: bob.user.email! } });
    expect(ids(add.body)).toContainEqual([bob.user.uniqueId, 'contributor']);
    const mismatch = await rest(t.url, 'POST', users('/me'), {
      key: lead.key,
      query: { email: bob.user.email!, username: alice.user.username! },
    });
    expect(mismatch.status).toBe(422);
    expect((await rest(t.url, 'POST', users('/me'), { key: lead.key })).status).toBe(422);
    const gone = await rest(t.url, 'DELETE', users('/me'), {
      key: lead.key,
      query: { username: bob.user.username! },
    });
    expect(ids(gone.body)).not.toContainEqual([bob.user.uniqueId, 'contributor']);
  });

  test('listing: members and project admins (offset envelope, lead not listed); others 403', async () => {
    for (const key of [lead.key, manager.key, alice.key, admin.key]) {
      const page = await rest(t.url, 'GET', users(), { key, query: { limit: 1000 } });
      expect(page.status).toBe(200);
      expect(Object.keys(page.body).sort()).toEqual(['items', 'total']);
      expect(page.body.items.map((m: { unique_id: string }) => m.unique_id)).not.toContain(
        lead.user.uniqueId,
      );
    }
    const one = await rest(t.url, 'GET', users(), { key: alice.key, query: { limit: 1, offset: 1 } });
    expect(one.body.items).toHaveLength(1);
    expect(one.body.total).toBe(2);
    // emails only for oneself and platform admins
    const seen = await rest(t.url, 'GET', users(), { key: alice.key });
    const me = seen.body.items.find((m: { unique_id: string }) => m.unique_id === alice.user.uniqueId);
    const other = seen.body.items.find((m: { unique_id: string }) => m.unique_id === manager.user.uniqueId);
    expect(me.email).toBe(alice.user.email);
    expect(other).not.toHaveProperty('email');
    expect((await rest(t.url, 'GET', users(), { key: stranger.key })).status).toBe(403);
    const granted = await makeUser(t.app);
    await grant(t.app, project.uniqueId, 'project', 'user', granted.user.uniqueId, 'admin');
    expect((await rest(t.url, 'GET', users(), { key: granted.key })).status).toBe(200);
  });

  test('bad paths: 403 below project admin, 409 for the lead, 422 role, 404 unknown user or project', async () => {
    expect((await rest(t.url, 'POST', users(`/${stranger.user.uniqueId}`), { key: alice.key })).status).toBe(
      403,
    );
    expect(
      (await rest(t.url, 'POST', users(`/${stranger.user.uniqueId}`), { key: stranger.key })).status,
    ).toBe(403);
    const leadRemoval = await rest(t.url, 'DELETE', users(`/${lead.user.uniqueId}`), { key: admin.key });
    expect(leadRemoval.status).toBe(409);
    expect(leadRemoval.body.detail).toMatch(/transfer_ownership/);
    expect(
      (
        await rest(t.url, 'PATCH', users(`/${lead.user.uniqueId}`), {
          key: admin.key,
          body: { role: 'viewer' },
        })
      ).status,
    ).toBe(409);
    const role = await rest(t.url, 'PATCH', users(`/${alice.user.uniqueId}`), {
      key: lead.key,
      body: { role: 'owner' },
    });
    expect(role.status).toBe(422);
    expect(role.body.fields[0].field).toBe('role');
    expect(
      (
        await rest(t.url, 'POST', users(`/${alice.user.uniqueId}`), {
          key: lead.key,
          query: { role: 'boss' },
        })
      ).status,
    ).toBe(422);
    expect((await rest(t.url, 'POST', users('/no-such-user-q'), { key: lead.key })).status).toBe(404);
    expect(
      (
        await rest(t.url, 'PATCH', users(`/${stranger.user.uniqueId}`), {
          key: lead.key,
          body: { role: 'viewer' },
        })
      ).status,
    ).toBe(404);
    expect((await rest(t.url, 'GET', '/projects/no-such-project-q/users', { key: admin.key })).status).toBe(
      404,
    );
    const members = await rest(t.url, 'GET', users(), { key: lead.key });
    expect(ids(members.body.items)).toContainEqual([alice.user.uniqueId, 'contributor']);
  });

  test('GraphQL: members field for insiders only, setProjectMember, removeProjectMember', async () => {
    const q = `query($p: String!) { project(id: $p) { members { role user { uniqueId email } } } }`;
    const asAlice = await gql(t.url, alice.key, q, { p: project.projectId });
    expect(asAlice.errors).toBeUndefined();
    expect(
      asAlice.data.project.members.map((m: { user: { uniqueId: string } }) => m.user.uniqueId),
    ).toContain(alice.user.uniqueId);
    const asStranger = await gql(t.url, stranger.key, q, { p: project.projectId });
    expect(asStranger.data.project.members).toBeNull();
    const set = await gql(
      t.url,
      manager.key,
      `mutation($p: String!, $u: String!) { setProjectMember(project: $p, member: { user: $u, role: "viewer" }) { role user { uniqueId } } }`,
      { p: project.projectId, u: stranger.user.username },
    );
    expect(set.data.setProjectMember).toContainEqual({
      role: 'viewer',
      user: { uniqueId: stranger.user.uniqueId },
    });
    const lead409 = await gql(
      t.url,
      admin.key,
      `mutation($p: String!, $u: String!) { setProjectMember(project: $p, member: { user: $u }) { role } }`,
      { p: project.projectId, u: lead.user.uniqueId },
    );
    expect(lead409.errors?.[0].extensions?.code).toBe('CONFLICT');
    const removed = await gql(
      t.url,
      manager.key,
      `mutation($p: String!, $u: String!) { removeProjectMember(project: $p, user: $u) { user { uniqueId } } }`,
      { p: project.projectId, u: stranger.user.uniqueId },
    );
    expect(removed.data.removeProjectMember).not.toContainEqual({
      user: { uniqueId: stranger.user.uniqueId },
    });
  });

  test('a new member sees the project datasets at once; a removed one no longer does', async () => {
    const ds = await rest(t.url, 'POST', '/datasets', {
      key: lead.key,
      body: { dataset_name: 'members only', project_id: project.projectId },
    });
    const id = ds.body.unique_id as string;
    const fresh = await makeUser(t.app);
    expect((await rest(t.url, 'GET', `/datasets/${id}`, { key: fresh.key })).status).toBe(404);
    await rest(t.url, 'POST', users(`/${fresh.user.uniqueId}`), { key: lead.key, query: { role: 'viewer' } });
    expect((await rest(t.url, 'GET', `/datasets/${id}`, { key: fresh.key })).status).toBe(200);
    await rest(t.url, 'DELETE', users(`/${fresh.user.uniqueId}`), { key: lead.key });
    expect((await rest(t.url, 'GET', `/datasets/${id}`, { key: fresh.key })).status).toBe(404);
  });
});

describe('join requests', () => {
  let project: Project;
  beforeAll(async () => {
    project = await makeProject(t.app, lead.user);
    await addMember(t.app, project, manager.user, 'admin');
  });
  const join = (key: string, group: string, reason: unknown = 'please') =>
    rest(t.url, 'POST', `/access_groups/${group}/join`, { key, body: { reason } });

  test('request, list, approve: the requester becomes a contributor', async () => {
    const asked = await join(alice.key, project.projectId);
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({
      group_name: project.projectId,
      requester_id: alice.user.uniqueId,
      reason: 'please',
      status: 'pending',
      review_time: null,
      reviewer_id: null,
      reviewer_notes: null,
    });
    expect(Number.isInteger(asked.body.id)).toBe(true);
    expect((await join(alice.key, project.projectId)).status).toBe(409);
    expect((await join(manager.key, project.projectId)).status).toBe(409);
    expect((await join(lead.key, project.projectId)).status).toBe(409);
    expect((await join(alice.key, 'no-such-group-z')).status).toBe(404);
    const asked2 = await join(bob.key, project.projectId, null);
    expect(asked2.body.reason).toBeNull();

    const list = await rest(t.url, 'GET', '/join_requests', {
      key: manager.key,
      query: { group_name: project.projectId, status: 'pending' },
    });
    expect(list.status).toBe(200);
    expect(list.body.items.map((r: { id: number }) => r.id)).toEqual([asked2.body.id, asked.body.id]);
    expect(list.body.total).toBe(2);
    const byRequester = await rest(t.url, 'GET', '/join_requests', {
      key: lead.key,
      query: { group_name: project.projectId, requester_id: alice.user.uniqueId },
    });
    expect(byRequester.body.items.map((r: { id: number }) => r.id)).toEqual([asked.body.id]);

    const approved = await rest(t.url, 'PATCH', `/join_requests/${asked.body.id}`, {
      key: lead.key,
      body: { status: 'approved', reviewer_notes: 'welcome' },
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'approved',
      reviewer_id: lead.user.uniqueId,
      reviewer_notes: 'welcome',
    });
    expect(approved.body.review_time).not.toBeNull();
    const members = await rest(t.url, 'GET', `/projects/${project.projectId}/users`, { key: lead.key });
    expect(ids(members.body.items)).toContainEqual([alice.user.uniqueId, 'contributor']);
    expect(
      (
        await rest(t.url, 'PATCH', `/join_requests/${asked.body.id}`, {
          key: lead.key,
          body: { status: 'rejected' },
        })
      ).status,
    ).toBe(409);
    const rejected = await rest(t.url, 'PATCH', `/join_requests/${asked2.body.id}`, {
      key: manager.key,
      body: { status: 'rejected' },
    });
    expect(rejected.body.status).toBe('rejected');
    const mine = await rest(t.url, 'GET', '/account/join_requests', {
      key: bob.key,
      query: { status: 'rejected' },
    });
    expect(mine.body.items.map((r: { id: number }) => r.id)).toEqual([asked2.body.id]);
    expect((await join(bob.key, project.projectId)).status).toBe(201);
  });

  test('who may list and review: platform admin, or the lead and admins of the group; bad input', async () => {
    const asked = await join(stranger.key, project.projectId);
    expect((await rest(t.url, 'GET', '/join_requests', { key: manager.key })).status).toBe(403);
    expect((await rest(t.url, 'GET', '/join_requests', { key: admin.key })).status).toBe(200);
    const outsider = { key: stranger.key, query: { group_name: project.projectId } };
    expect((await rest(t.url, 'GET', '/join_requests', outsider)).status).toBe(403);
    const review = (key: string, body: unknown) =>
      rest(t.url, 'PATCH', `/join_requests/${asked.body.id}`, { key, body });
    expect((await review(stranger.key, { status: 'approved' })).status).toBe(403);
    expect((await review(alice.key, { status: 'approved' })).status).toBe(403);
    const bad = await review(lead.key, { status: 'maybe' });
    expect(bad.status).toBe(422);
    expect(bad.body.fields[0].field).toBe('status');
    expect((await review(lead.key, { status: 'approved', extra: 1 })).status).toBe(422);
    expect(
      (
        await rest(t.url, 'PATCH', '/join_requests/999999999', {
          key: admin.key,
          body: { status: 'approved' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await rest(t.url, 'PATCH', '/join_requests/abc', { key: admin.key, body: { status: 'approved' } }))
        .status,
    ).toBe(422);
    expect(
      (await rest(t.url, 'GET', '/join_requests', { key: admin.key, query: { status: 'sleeping' } })).status,
    ).toBe(422);
    expect((await review(admin.key, { status: 'approved' })).body.status).toBe('approved');
  });

  test('GraphQL: requestToJoinProject, joinRequests, myJoinRequests, reviewJoinRequest', async () => {
    const user = await makeUser(t.app);
    const asked = await gql(
      t.url,
      user.key,
      `mutation($p: String!) { requestToJoinProject(project: $p, reason: "hi") { id status project { projectId } requesterId } }`,
      { p: project.uniqueId },
    );
    expect(asked.errors).toBeUndefined();
    expect(asked.data.requestToJoinProject).toMatchObject({
      status: 'pending',
      project: { projectId: project.projectId },
      requesterId: user.user.uniqueId,
    });
    const list = await gql(
      t.url,
      lead.key,
      `query($p: String!) { joinRequests(project: $p, status: "pending") { totalCount nodes { id requester { uniqueId } } } }`,
      { p: project.projectId },
    );
    expect(list.data.joinRequests.nodes.map((n: { id: number }) => n.id)).toContain(
      asked.data.requestToJoinProject.id,
    );
    const reviewed = await gql(
      t.url,
      lead.key,
      `mutation($id: Int!) { reviewJoinRequest(id: $id, approve: false, reviewerNotes: "no") { status reviewerNotes } }`,
      { id: asked.data.requestToJoinProject.id },
    );
    expect(reviewed.data.reviewJoinRequest).toEqual({ status: 'rejected', reviewerNotes: 'no' });
    const mine = await gql(t.url, user.key, `{ myJoinRequests { nodes { status } } }`);
    expect(mine.data.myJoinRequests.nodes).toEqual([{ status: 'rejected' }]);
    const denied = await gql(t.url, user.key, `{ joinRequests { totalCount } }`);
    expect(denied.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });
});
