import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { addMember, makeProject, makeUser, randomOrcid, unique, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';
import type { Project } from '../../src/modules/project/project.entity';

let t: TestApp;
let admin: TestUser;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let stranger: TestUser;
let project: Project;

const access = (key: string, id: string) => rest(t.url, 'GET', `/resources/${id}/access`, { key });
const put = (key: string, id: string, kind: string, principal: string, permission: unknown) =>
  rest(t.url, 'PUT', `/resources/${id}/access/${kind}/${encodeURIComponent(principal)}`, {
    key,
    body: { permission },
  });
const del = (key: string, id: string, kind: string, principal: string) =>
  rest(t.url, 'DELETE', `/resources/${id}/access/${kind}/${encodeURIComponent(principal)}`, { key });
const read = (key: string, id: string) => rest(t.url, 'GET', `/datasets/${id}`, { key });

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  owner = await makeUser(t.app, { orcid: randomOrcid() });
  alice = await makeUser(t.app, { orcid: randomOrcid() });
  bob = await makeUser(t.app);
  stranger = await makeUser(t.app);
  project = await makeProject(t.app, admin.user);
  await addMember(t.app, project, bob.user, 'viewer');
});
afterAll(() => t.close());

describe('grants', () => {
  test('grant by ORCID, username or email; levels take effect; revoke returns a detail', async () => {
    const ds = await newDataset(t.url, owner.key);
    expect((await read(alice.key, ds)).status).toBe(404);

    const granted = await put(owner.key, ds, 'users', alice.user.username!, 'viewer');
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({
      resource_id: ds,
      resource_type: 'dataset',
      principal_type: 'user',
      principal_id: alice.user.uniqueId,
      principal_name: alice.user.username,
      permission: 'viewer',
      granted_by: owner.user.uniqueId,
    });
    expect(granted.body.user).toEqual({
      unique_id: alice.user.uniqueId,
      username: alice.user.username,
      first_name: 'Test',
      last_name: alice.user.lastName,
    });
    expect((await read(alice.key, ds)).body.capabilities).toMatchObject({
      can_read: true,
      can_update: false,
    });
    const patch = { key: alice.key, body: { session_name: 'x' } };
    expect((await rest(t.url, 'PATCH', `/datasets/${ds}`, patch)).status).toBe(403);

    // the same grant again by email, raised to editor: one grant, changed
    expect((await put(owner.key, ds, 'users', alice.user.email!.toUpperCase(), 'editor')).status).toBe(200);
    expect((await rest(t.url, 'PATCH', `/datasets/${ds}`, patch)).status).toBe(200);
    const listing = await access(owner.key, ds);
    expect(listing.body).toMatchObject({
      unique_id: ds,
      resource_type: 'dataset',
      owner_orcid: owner.user.uniqueId,
      public: false,
      effective_access: 'owner',
      grants_complete: true,
    });
    expect(listing.body.owner).toMatchObject({ unique_id: owner.user.uniqueId });
    expect(listing.body.owner.email).toBe(owner.user.email);
    expect(listing.body.grants).toHaveLength(1);
    expect(listing.body.grants[0]).toMatchObject({ principal_id: alice.user.uniqueId, permission: 'editor' });

    // an editor reads the listing with their own effective access, not the other grants
    expect((await put(owner.key, ds, 'users', bob.user.uniqueId, 'viewer')).status).toBe(200);
    const asAlice = await access(alice.key, ds);
    expect(asAlice.body.effective_access).toBe('editor');
    expect(asAlice.body.grants_complete).toBe(false);
    expect(asAlice.body.grants.map((g: { principal_id: string }) => g.principal_id)).toEqual([
      alice.user.uniqueId,
    ]);
    expect(asAlice.body.owner).not.toHaveProperty('email');

    const revoked = await del(owner.key, ds, 'users', alice.user.uniqueId);
    expect(revoked.status).toBe(200);
    expect(Object.keys(revoked.body)).toEqual(['detail']);
    expect(revoked.body.detail).toMatch(/Revoked/);
    expect((await read(alice.key, ds)).status).toBe(404);
    expect((await del(owner.key, ds, 'users', alice.user.uniqueId)).status).toBe(404);
  });

  test('bad input: owner is 409 pointing to the transfer; bad kind and permission are 422', async () => {
    const ds = await newDataset(t.url, owner.key);
    const own = await put(owner.key, ds, 'users', alice.user.uniqueId, 'owner');
    expect(own.status).toBe(409);
    expect(own.body.detail).toContain(`/resources/${ds}/transfer_ownership`);
    const kind = await put(owner.key, ds, 'people', alice.user.uniqueId, 'viewer');
    expect(kind.status).toBe(422);
    expect(kind.body.fields[0].field).toBe('kind');
    expect((await put(owner.key, ds, 'constructor', alice.user.uniqueId, 'viewer')).status).toBe(422);
    for (const bad of ['reader', 5, null]) {
      const res = await put(owner.key, ds, 'users', alice.user.uniqueId, bad);
      expect(res.status).toBe(422);
      expect(res.body.fields[0].field).toBe('permission');
    }
    const extra = await rest(t.url, 'PUT', `/resources/${ds}/access/users/${alice.user.uniqueId}`, {
      key: owner.key,
      body: { permission: 'viewer', expires: 'never' },
    });
    expect(extra.status).toBe(422);
    expect((await put(owner.key, ds, 'users', 'nobody-at-all', 'viewer')).status).toBe(404);
    expect((await put(owner.key, ds, 'projects', 'no-such-project-x', 'viewer')).status).toBe(404);
    expect((await put(owner.key, ds, 'groups', 'no-such-group-x', 'viewer')).status).toBe(404);
    expect((await put(owner.key, ds, 'users', owner.user.uniqueId, 'viewer')).status).toBe(409);
    const listing = await access(owner.key, ds);
    expect(listing.body.grants).toEqual([]);
  });

  test('managing access needs admin: 404 for those who cannot read, 403 for readers below admin', async () => {
    const ds = await newDataset(t.url, owner.key);
    expect((await put(stranger.key, ds, 'users', stranger.user.uniqueId, 'admin')).status).toBe(404);
    expect((await access(stranger.key, ds)).status).toBe(404);
    await put(owner.key, ds, 'users', alice.user.uniqueId, 'editor');
    expect((await put(alice.key, ds, 'users', stranger.user.uniqueId, 'viewer')).status).toBe(403);
    expect((await del(alice.key, ds, 'users', alice.user.uniqueId)).status).toBe(403);
    await put(owner.key, ds, 'users', alice.user.uniqueId, 'admin');
    expect((await put(alice.key, ds, 'users', stranger.user.uniqueId, 'viewer')).status).toBe(200);
    expect((await read(stranger.key, ds)).status).toBe(200);
    expect((await put(admin.key, ds, 'users', stranger.user.uniqueId, 'contributor')).status).toBe(200);
  });

  test('project grants reach the members; group grants reach the group', async () => {
    const ds = await newDataset(t.url, owner.key);
    expect((await put(owner.key, ds, 'projects', project.projectId, 'contributor')).status).toBe(200);
    const asBob = await read(bob.key, ds);
    expect(asBob.status).toBe(200);
    expect(asBob.body.capabilities.can_add_files).toBe(true);
    expect((await read(alice.key, ds)).status).toBe(404);

    const group = unique('beamline-staff');
    expect(
      (await rest(t.url, 'POST', `/users/${alice.user.uniqueId}/access_groups/${group}`, { key: admin.key }))
        .status,
    ).toBe(200);
    const byGroup = await put(owner.key, ds, 'groups', group, 'viewer');
    expect(byGroup.body).toMatchObject({ principal_type: 'group', principal_id: group });
    expect((await read(alice.key, ds)).status).toBe(200);
    const list = await rest(t.url, 'GET', '/datasets', { key: alice.key, query: { unique_id: ds } });
    expect(list.body.total).toBe(1);
    const mine = await access(alice.key, ds);
    expect(mine.body.grants.map((g: { principal_type: string }) => g.principal_type)).toEqual(['group']);

    expect(
      (
        await rest(t.url, 'DELETE', `/users/${alice.user.uniqueId}/access_groups/${group}`, {
          key: admin.key,
        })
      ).status,
    ).toBe(200);
    expect((await read(alice.key, ds)).status).toBe(404);
  });

  test('samples, projects and instruments take grants too', async () => {
    const sample = await newSample(t.url, owner.key);
    expect((await put(owner.key, sample, 'users', alice.user.uniqueId, 'viewer')).status).toBe(200);
    expect((await rest(t.url, 'GET', `/samples/${sample}`, { key: alice.key })).status).toBe(200);

    expect((await put(admin.key, project.projectId, 'users', alice.user.uniqueId, 'admin')).status).toBe(200);
    const proj = await rest(t.url, 'GET', `/projects/${project.projectId}`, { key: alice.key });
    expect(proj.body.capabilities).toMatchObject({ can_manage_members: true, can_transfer_ownership: false });
    expect((await access(alice.key, project.uniqueId)).body).toMatchObject({
      resource_type: 'project',
      public: null,
      effective_access: 'admin',
    });

    const instrument = await rest(t.url, 'POST', '/instruments', {
      key: admin.key,
      body: { instrument_name: unique('Grant scope'), owner: owner.user.uniqueId },
    });
    const iid = instrument.body.unique_id as string;
    const denied = { key: alice.key, body: { location: 'B1' } };
    expect((await rest(t.url, 'PATCH', `/instruments/${iid}`, denied)).status).toBe(403);
    expect((await put(owner.key, iid, 'users', alice.user.uniqueId, 'editor')).status).toBe(200);
    expect((await rest(t.url, 'PATCH', `/instruments/${iid}`, denied)).status).toBe(200);
    expect((await access(stranger.key, iid)).body.effective_access).toBe('viewer');
  });
});

describe('public and private', () => {
  test('explicit operations need admin permission and return the record', async () => {
    const ds = await newDataset(t.url, owner.key);
    await put(owner.key, ds, 'users', alice.user.uniqueId, 'editor');
    expect((await rest(t.url, 'POST', `/resources/${ds}/public`, { key: alice.key })).status).toBe(403);
    expect((await rest(t.url, 'POST', `/resources/${ds}/public`, { key: stranger.key })).status).toBe(404);
    // the public field on an ordinary update needs admin as well
    const viaPatch = { key: alice.key, body: { public: true } };
    expect((await rest(t.url, 'PATCH', `/datasets/${ds}`, viaPatch)).status).toBe(403);
    const pub = await rest(t.url, 'POST', `/resources/${ds}/public`, { key: owner.key });
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({ unique_id: ds, public: true, resource_type: 'dataset' });
    expect(pub.body.capabilities.can_manage_access).toBe(true);
    expect((await read(stranger.key, ds)).status).toBe(200);
    const priv = await rest(t.url, 'POST', `/resources/${ds}/private`, { key: owner.key });
    expect(priv.body.public).toBe(false);
    expect((await read(stranger.key, ds)).status).toBe(404);

    const sample = await newSample(t.url, owner.key);
    expect((await rest(t.url, 'POST', `/resources/${sample}/public`, { key: owner.key })).body.public).toBe(
      true,
    );
    const proj = await rest(t.url, 'POST', `/resources/${project.uniqueId}/public`, { key: admin.key });
    expect(proj.status).toBe(422);
    expect(proj.body.fields[0].field).toBe('resource_type');
  });

  test('instrument public flag needs admin permission on it', async () => {
    const created = await rest(t.url, 'POST', '/instruments', {
      key: admin.key,
      body: { instrument_name: unique('Flag'), owner: owner.user.uniqueId },
    });
    const iid = created.body.unique_id as string;
    await put(owner.key, iid, 'users', alice.user.uniqueId, 'editor');
    const patch = { key: alice.key, body: { public: true } };
    expect((await rest(t.url, 'PATCH', `/instruments/${iid}`, patch)).status).toBe(403);
    expect((await rest(t.url, 'POST', `/resources/${iid}/public`, { key: owner.key })).body.public).toBe(
      true,
    );
  });
});

describe('legacy resource access groups', () => {
  test('list and add by group name: project slug, user id or named group; write gives contributor', async () => {
    const ds = await newDataset(t.url, owner.key);
    const add = (group: string, write: string) =>
      rest(t.url, 'POST', `/resources/${ds}/access_groups`, {
        key: owner.key,
        query: { group_name: group, read: 'True', write },
      });
    const byProject = await add(project.projectId, 'False');
    expect(byProject.status).toBe(201);
    expect(byProject.body).toMatchObject({
      group_name: project.projectId,
      principal_type: 'project',
      read: true,
      write: false,
      permission: 'viewer',
    });
    expect((await add(alice.user.uniqueId, 'True')).body).toMatchObject({
      group_name: alice.user.uniqueId,
      principal_type: 'user',
      write: true,
      permission: 'contributor',
    });
    expect((await add('no-such-group-y', 'True')).status).toBe(404);
    const list = await rest(t.url, 'GET', `/resources/${ds}/access_groups`, { key: owner.key });
    expect(list.status).toBe(200);
    expect(list.body.map((g: { group_name: string }) => g.group_name).sort()).toEqual(
      [project.projectId, alice.user.uniqueId].sort(),
    );
    expect((await rest(t.url, 'GET', `/resources/${ds}/access_groups`, { key: alice.key })).status).toBe(403);
    expect((await rest(t.url, 'GET', `/resources/${ds}/access_groups`, { key: stranger.key })).status).toBe(
      404,
    );
  });

  test("a user's groups: own id, project slugs, named groups; admins change them", async () => {
    const user = await makeUser(t.app, { orcid: randomOrcid() });
    const group = unique('cryo-team');
    const path = `/users/${user.user.uniqueId}/access_groups`;
    expect((await rest(t.url, 'POST', `${path}/${group}`, { key: user.key })).status).toBe(403);
    expect((await rest(t.url, 'POST', `${path}/${group}`, { key: admin.key })).status).toBe(200);
    expect((await rest(t.url, 'POST', `${path}/${project.projectId}`, { key: admin.key })).status).toBe(200);
    const names = await rest(t.url, 'GET', path, { key: user.key });
    expect(names.body).toEqual([user.user.uniqueId, project.projectId, group]);
    expect((await rest(t.url, 'GET', path, { key: stranger.key })).status).toBe(403);
    expect((await rest(t.url, 'GET', path, { key: admin.key })).body).toEqual(names.body);
    const account = await rest(t.url, 'GET', '/account', { key: user.key });
    expect(account.body.access_group_ids).toEqual(names.body);
    const members = await rest(t.url, 'GET', `/projects/${project.projectId}/users`, { key: admin.key });
    expect(
      members.body.items.find((m: { unique_id: string }) => m.unique_id === user.user.uniqueId).role,
    ).toBe('contributor');

    expect((await rest(t.url, 'DELETE', `${path}/${project.projectId}`, { key: admin.key })).status).toBe(
      200,
    );
    expect((await rest(t.url, 'DELETE', `${path}/${group}`, { key: admin.key })).status).toBe(200);
    expect((await rest(t.url, 'DELETE', `${path}/${group}`, { key: admin.key })).status).toBe(404);
    expect((await rest(t.url, 'GET', path, { key: user.key })).body).toEqual([user.user.uniqueId]);
    expect((await rest(t.url, 'POST', `${path}/${randomOrcid()}`, { key: admin.key })).status).toBe(422);
    expect((await rest(t.url, 'POST', `${path}/bad%20name`, { key: admin.key })).status).toBe(422);
    // the lead of a project cannot leave it through a group change
    const lead = `/users/${admin.user.uniqueId}/access_groups/${project.projectId}`;
    expect((await rest(t.url, 'DELETE', lead, { key: admin.key })).status).toBe(409);
  });
});

describe('GraphQL', () => {
  test('resourceAccess, setAccess, revokeAccess, setPublic', async () => {
    const ds = await newDataset(t.url, owner.key);
    const set = await gql(
      t.url,
      owner.key,
      `mutation($id: ID!, $p: String!) { setAccess(id: $id, kind: users, principal: $p, permission: contributor) {
         principalType principalId permission user { uniqueId email } } }`,
      { id: ds, p: alice.user.email },
    );
    expect(set.errors).toBeUndefined();
    expect(set.data.setAccess).toEqual({
      principalType: 'user',
      principalId: alice.user.uniqueId,
      permission: 'contributor',
      user: { uniqueId: alice.user.uniqueId, email: null },
    });
    const own = await gql(
      t.url,
      owner.key,
      `mutation($id: ID!) { setAccess(id: $id, kind: users, principal: "x", permission: owner) { permission } }`,
      { id: ds },
    );
    expect(own.errors?.[0].extensions?.code).toBe('CONFLICT');
    const listing = await gql(
      t.url,
      alice.key,
      `query($id: ID!) { resourceAccess(id: $id) { ownerOrcid effectiveAccess grantsComplete grants { principalId } } }`,
      { id: ds },
    );
    expect(listing.data.resourceAccess).toEqual({
      ownerOrcid: owner.user.uniqueId,
      effectiveAccess: 'contributor',
      grantsComplete: false,
      grants: [{ principalId: alice.user.uniqueId }],
    });
    const pub = await gql(
      t.url,
      owner.key,
      `mutation($id: ID!) { setPublic(id: $id, public: true) { ... on Dataset { public capabilities { canManageAccess } } } }`,
      { id: ds },
    );
    expect(pub.data.setPublic).toEqual({ public: true, capabilities: { canManageAccess: true } });
    const denied = await gql(
      t.url,
      alice.key,
      `mutation($id: ID!) { setPublic(id: $id, public: false) { __typename } }`,
      {
        id: ds,
      },
    );
    expect(denied.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const revoke = await gql(
      t.url,
      owner.key,
      `mutation($id: ID!, $p: String!) { revokeAccess(id: $id, kind: users, principal: $p) }`,
      { id: ds, p: alice.user.uniqueId },
    );
    expect(revoke.data.revokeAccess).toBe(true);
    const unknown = await gql(
      t.url,
      stranger.key,
      `query($id: ID!) { resourceAccess(id: $id) { uniqueId } }`,
      {
        id: await newDataset(t.url, owner.key),
      },
    );
    expect(unknown.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
