import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { addMember, makeProject, makeUser, unique, type TestUser } from '../support/factories';

/**
 * Privilege mode (docs/access-control.md, "Platform roles and privilege mode"): the
 * `Crucible-Privilege-Mode` header on REST and GraphQL, the platform roles' creation rights and
 * the `authorization`/`capabilities` of `/account/profile`. The authorization matrix runs every
 * route as an administrator in normal mode (role `normalAdmin`); this file covers the rest.
 */
let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let reader: TestUser;
let privateDataset: string;
let ownDataset: string;
const privateName = unique('private');
const ownName = unique('own');
const NORMAL = { 'crucible-privilege-mode': 'normal' };
const ELEVATED = { 'crucible-privilege-mode': 'elevated' };

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  alice = await makeUser(t.app);
  reader = await makeUser(t.app, { role: 'none' });
  const made = await rest(t.url, 'POST', '/datasets', {
    key: alice.key,
    body: { dataset_name: privateName, public: false },
  });
  expect(made.status).toBe(201);
  privateDataset = made.body.unique_id;
  const own = await rest(t.url, 'POST', '/datasets', {
    key: admin.key,
    headers: NORMAL,
    body: { dataset_name: ownName, public: false },
  });
  expect(own.status).toBe(201);
  ownDataset = own.body.unique_id;
});
afterAll(() => t.close());

describe('privilege mode', () => {
  test('no header keeps an administrator elevated; normal gives them an ordinary view', async () => {
    const elevated = await rest(t.url, 'GET', `/datasets/${privateDataset}`, { key: admin.key });
    expect(elevated.status).toBe(200);
    const normal = await rest(t.url, 'GET', `/datasets/${privateDataset}`, {
      key: admin.key,
      headers: NORMAL,
    });
    expect(normal.status).toBe(404);
    const own = await rest(t.url, 'GET', `/datasets/${ownDataset}`, { key: admin.key, headers: NORMAL });
    expect(own.status).toBe(200);
    // the list carries the same visibility (each list narrowed by name: the worker's database
    // holds other files' datasets too)
    const listed = async (name: string, headers: Record<string, string>): Promise<string[]> => {
      const res = await rest(t.url, 'GET', '/datasets', {
        key: admin.key,
        headers,
        query: { dataset_name: name },
      });
      expect(res.status).toBe(200);
      return (res.body.items as { unique_id: string }[]).map((d) => d.unique_id);
    };
    expect(await listed(ownName, NORMAL)).toEqual([ownDataset]);
    expect(await listed(privateName, NORMAL)).toEqual([]);
    expect(await listed(privateName, ELEVATED)).toEqual([privateDataset]);
  });

  test('normal mode keeps the administrator’s own memberships and refuses administration', async () => {
    const project = await makeProject(t.app, alice.user, unique('priv'));
    await addMember(t.app, project, admin.user, 'viewer');
    const inProject = await rest(t.url, 'POST', '/datasets', {
      key: alice.key,
      body: { dataset_name: unique('inproj'), public: false, project_id: project.projectId },
    });
    expect(inProject.status).toBe(201);
    const read = await rest(t.url, 'GET', `/datasets/${inProject.body.unique_id}`, {
      key: admin.key,
      headers: NORMAL,
    });
    expect(read.status).toBe(200);
    // viewer of the project: may not change it in normal mode
    const change = await rest(t.url, 'PATCH', `/datasets/${inProject.body.unique_id}`, {
      key: admin.key,
      headers: NORMAL,
      body: { measurement: 'x' },
    });
    expect(change.status).toBe(403);
    expect((await rest(t.url, 'GET', '/users', { key: admin.key, headers: NORMAL })).status).toBe(403);
    expect((await rest(t.url, 'GET', '/users', { key: admin.key })).status).toBe(200);
    const newProject = await rest(t.url, 'POST', '/projects', {
      key: admin.key,
      headers: NORMAL,
      body: { project_id: unique('nope'), title: 'no' },
    });
    expect(newProject.status).toBe(403);
  });

  test('elevated from a caller who may not elevate is 403, on REST and GraphQL; a bad value 400', async () => {
    const refused = await rest(t.url, 'GET', '/account/profile', { key: alice.key, headers: ELEVATED });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/platform administrators/);
    const gqlRefused = await gql(t.url, alice.key, '{ me { orcid } }', {}, ELEVATED);
    expect(gqlRefused.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await rest(t.url, 'GET', '/account/profile', { key: alice.key, headers: NORMAL })).status).toBe(
      200,
    );
    const bad = await rest(t.url, 'GET', '/account/profile', {
      key: admin.key,
      headers: { 'crucible-privilege-mode': 'root' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/Crucible-Privilege-Mode/);
  });

  test('/account/profile reports the authorization and the creation capabilities', async () => {
    const adminProfile = await rest(t.url, 'GET', '/account/profile', { key: admin.key });
    expect(adminProfile.body).toMatchObject({
      platform_role: 'admin',
      authorization: { platform_role: 'admin', effective_privilege_mode: 'elevated', can_elevate: true },
      capabilities: {
        can_manage_service_accounts: true,
        can_manage_users: true,
        can_create_project: true,
        can_register_instrument: true,
        can_create_sample: true,
        can_create_dataset: true,
        can_create_for_others: true,
      },
    });
    const normal = await rest(t.url, 'GET', '/account/profile', { key: admin.key, headers: NORMAL });
    expect(normal.body).toMatchObject({
      authorization: { platform_role: 'admin', effective_privilege_mode: 'normal', can_elevate: true },
      capabilities: {
        can_manage_service_accounts: false,
        can_manage_users: false,
        can_create_project: false,
        can_register_instrument: false,
        can_create_sample: true,
        can_create_dataset: true,
        can_create_for_others: false,
      },
    });
    const none = await rest(t.url, 'GET', '/account/profile', { key: reader.key });
    expect(none.body).toMatchObject({
      authorization: { platform_role: 'none', effective_privilege_mode: 'normal', can_elevate: false },
      capabilities: { can_create_dataset: false, can_create_sample: false, can_create_project: false },
    });
    const me = await gql(
      t.url,
      admin.key,
      '{ me { isPlatformAdmin platformRole effectivePrivilegeMode canElevate capabilities { canCreateProject canCreateDataset } } }',
      {},
      NORMAL,
    );
    expect(me.data.me).toEqual({
      isPlatformAdmin: false,
      platformRole: 'admin',
      effectivePrivilegeMode: 'normal',
      canElevate: true,
      capabilities: { canCreateProject: false, canCreateDataset: true },
    });
  });

  test('the platform role none creates nothing; GraphQL sees normal mode too', async () => {
    const refused = await rest(t.url, 'POST', '/datasets', {
      key: reader.key,
      body: { dataset_name: unique('none') },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/contributor and admin platform roles/);
    const sample = await rest(t.url, 'POST', '/samples', {
      key: reader.key,
      body: { sample_name: unique('none') },
    });
    expect(sample.status).toBe(403);
    const gqlRead = await gql(
      t.url,
      admin.key,
      'query($id: ID!) { dataset(id: $id) { uniqueId } }',
      { id: privateDataset },
      NORMAL,
    );
    expect(gqlRead.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const gqlElevated = await gql(t.url, admin.key, 'query($id: ID!) { dataset(id: $id) { uniqueId } }', {
      id: privateDataset,
    });
    expect(gqlElevated.data.dataset.uniqueId).toBe(privateDataset);
  });
});
