import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { addMember, makeProject, makeUser, randomOrcid, unique, type TestUser } from '../support/factories';
import { newMfid } from '../../src/core/ids';

let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  alice = await makeUser(t.app, { orcid: randomOrcid() });
  bob = await makeUser(t.app);
});
afterAll(() => t.close());

test('exact lookups: full record for oneself and admins, public-safe for others', async () => {
  const self = await rest(t.url, 'GET', `/users/${alice.user.uniqueId}`, { key: alice.key });
  expect(self.body).toMatchObject({
    unique_id: alice.user.uniqueId,
    email: alice.user.email,
    is_service_account: false,
  });
  expect(typeof self.body.id).toBe('number');
  const other = await rest(t.url, 'GET', `/users/${alice.user.uniqueId}`, { key: bob.key });
  expect(other.body.unique_id).toBe(alice.user.uniqueId);
  expect(other.body).not.toHaveProperty('email');
  const byName = await rest(t.url, 'GET', `/users/by-username/${alice.user.username!.toUpperCase()}`, {
    key: bob.key,
  });
  expect(byName.body).toEqual({
    unique_id: alice.user.uniqueId,
    username: alice.user.username,
    first_name: 'Test',
    last_name: alice.user.lastName,
  });
  expect((await rest(t.url, 'GET', `/users/by-username/nobody-${newMfid()}`, { key: bob.key })).status).toBe(
    404,
  );
  expect((await rest(t.url, 'GET', `/users/${randomOrcid()}`, { key: bob.key })).status).toBe(404);
});

test('batch resolve maps identifiers to public users or null', async () => {
  const res = await rest(t.url, 'POST', '/users/resolve', {
    key: bob.key,
    body: {
      orcids: [alice.user.uniqueId],
      usernames: [bob.user.username, 'no-such-user-x'],
      emails: [alice.user.email],
    },
  });
  expect(res.status).toBe(200);
  expect(res.body[alice.user.uniqueId]).toMatchObject({ unique_id: alice.user.uniqueId });
  expect(res.body[alice.user.uniqueId]).not.toHaveProperty('email');
  expect(res.body[bob.user.uniqueId].email).toBe(bob.user.email);
  expect(res.body['no-such-user-x']).toBeNull();
  expect((await rest(t.url, 'POST', '/users/resolve', { key: bob.key, body: {} })).status).toBe(422);
  expect((await rest(t.url, 'POST', '/users/resolve', { key: bob.key, body: { orcids: 'x' } })).status).toBe(
    422,
  );
});

test('listing, upserting and changing users is for platform admins', async () => {
  expect((await rest(t.url, 'GET', '/users', { key: bob.key })).status).toBe(403);
  const exact = await rest(t.url, 'GET', '/users', {
    key: admin.key,
    query: { email: alice.user.email!.toUpperCase(), permissive: 'False', limit: 1000 },
  });
  expect(exact.body.items.map((u: { unique_id: string }) => u.unique_id)).toEqual([alice.user.uniqueId]);
  expect(exact.body.total).toBe(1);
  const loose = await rest(t.url, 'GET', '/users', {
    key: admin.key,
    query: { email: alice.user.username!, permissive: 'True' },
  });
  expect(loose.body.total).toBe(1);

  const project = await makeProject(t.app, admin.user);
  const orcid = randomOrcid();
  const created = await rest(t.url, 'POST', '/users', {
    key: admin.key,
    body: {
      user_info: { orcid, first_name: 'Jane', last_name: 'Doe', email: `${unique('jane')}@example.org` },
      project_ids: [project.projectId],
    },
  });
  expect(created.status).toBe(200);
  expect(created.body).toMatchObject({ unique_id: orcid, first_name: 'Jane', is_service_account: false });
  const again = await rest(t.url, 'POST', '/users', {
    key: admin.key,
    body: { user_info: { orcid, first_name: 'Janet', last_name: 'Doe' }, project_ids: [project.projectId] },
  });
  expect(again.body).toMatchObject({ unique_id: orcid, first_name: 'Janet' });
  const projects = await rest(t.url, 'GET', `/users/${orcid}/projects`, { key: admin.key });
  expect(projects.body.items.map((p: { project_id: string }) => p.project_id)).toEqual([project.projectId]);
  expect((await rest(t.url, 'GET', `/users/${orcid}/projects`, { key: bob.key })).status).toBe(403);
  expect(
    (await rest(t.url, 'POST', '/users', { key: bob.key, body: { user_info: { orcid: randomOrcid() } } }))
      .status,
  ).toBe(403);
  expect(
    (await rest(t.url, 'POST', '/users', { key: admin.key, body: { user_info: { first_name: 'No id' } } }))
      .status,
  ).toBe(422);
  // the user and their memberships in one transaction: an unknown project leaves no user behind
  const lost = randomOrcid();
  const unknownProject = await rest(t.url, 'POST', '/users', {
    key: admin.key,
    body: { user_info: { orcid: lost }, project_ids: [project.projectId, 'no-such-project-q'] },
  });
  expect(unknownProject.status).toBe(404);
  expect((await rest(t.url, 'GET', `/users/${lost}`, { key: admin.key })).status).toBe(404);

  const patched = await rest(t.url, 'PATCH', `/users/${orcid}`, {
    key: admin.key,
    body: { last_name: 'Roe' },
  });
  expect(patched.body.last_name).toBe('Roe');
  expect(
    (await rest(t.url, 'PATCH', `/users/${orcid}`, { key: bob.key, body: { last_name: 'X' } })).status,
  ).toBe(403);
  const taken = await rest(t.url, 'PATCH', `/users/${orcid}`, {
    key: admin.key,
    body: { email: alice.user.email },
  });
  expect(taken.status).toBe(409);
});

test('account self-service: profile, the current key, verification', async () => {
  const carol = await makeUser(t.app);
  const updated = await rest(t.url, 'PATCH', '/account/profile', {
    key: carol.key,
    body: { first_name: 'Carol', username: null },
  });
  expect(updated.body).toMatchObject({ first_name: 'Carol', username: null });
  const denied = await rest(t.url, 'PATCH', '/account/profile', {
    key: carol.key,
    body: { is_platform_admin: true },
  });
  expect(denied.status).toBe(422);
  const bad = await rest(t.url, 'PATCH', '/account/profile', {
    key: carol.key,
    body: { email: 'not-an-email' },
  });
  expect(bad.status).toBe(422);
  expect(bad.body.fields[0].field).toBe('email');
  expect((await rest(t.url, 'GET', '/account/apikey', { key: carol.key })).body).toEqual({
    api_key: carol.key,
  });
  const verify = await rest(t.url, 'GET', '/account/verify', { key: carol.key });
  expect(verify.body).toMatchObject({ valid: true, expires_at: null });
  expect(typeof verify.body.created_at).toBe('string');
  const adminVerify = await rest(t.url, 'GET', `/users/${carol.user.uniqueId}/apikey/verify`, {
    key: admin.key,
  });
  expect(adminVerify.body.valid).toBe(true);
  expect(
    (await rest(t.url, 'GET', `/users/${carol.user.uniqueId}/apikey/verify`, { key: bob.key })).status,
  ).toBe(403);
});

test('service accounts: created with a one-time key, rotated, duplicates refused', async () => {
  const name = unique('ingest-bot');
  const created = await rest(t.url, 'POST', '/service_accounts', {
    key: admin.key,
    body: { username: name },
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ username: name, is_service_account: true });
  expect(created.body.unique_id).toMatch(/^[0-9a-hjkmnp-tv-z]{25}[048cgmrw]$/);
  const firstKey = created.body.api_key as string;
  expect((await rest(t.url, 'GET', '/account', { key: firstKey })).body.user_info.is_service_account).toBe(
    true,
  );
  expect(
    (await rest(t.url, 'POST', '/service_accounts', { key: admin.key, body: { username: name } })).status,
  ).toBe(409);
  expect(
    (await rest(t.url, 'POST', '/service_accounts', { key: admin.key, body: { username: 'Bad Name' } }))
      .status,
  ).toBe(422);
  expect(
    (await rest(t.url, 'POST', '/service_accounts', { key: bob.key, body: { username: unique('x') } }))
      .status,
  ).toBe(403);
  const own = newMfid();
  expect(
    (
      await rest(t.url, 'POST', '/service_accounts', {
        key: admin.key,
        body: { username: unique('sa'), unique_id: own },
      })
    ).body.unique_id,
  ).toBe(own);

  const rotated = await rest(t.url, 'POST', `/service_accounts/${created.body.unique_id}/rotate_key`, {
    key: admin.key,
  });
  expect(rotated.status).toBe(200);
  expect(rotated.body.api_key).not.toBe(firstKey);
  expect((await rest(t.url, 'GET', '/account', { key: firstKey })).status).toBe(401);
  expect((await rest(t.url, 'GET', '/account', { key: rotated.body.api_key })).status).toBe(200);
  expect(
    (await rest(t.url, 'POST', `/service_accounts/${alice.user.uniqueId}/rotate_key`, { key: admin.key }))
      .status,
  ).toBe(404);
  const listed = await rest(t.url, 'GET', '/users', {
    key: admin.key,
    query: { is_service_account: 'True', limit: 1000 },
  });
  expect(listed.body.items.every((u: { is_service_account: boolean }) => u.is_service_account)).toBe(true);
});

test('platform admins inspect what another user may read', async () => {
  const project = await makeProject(t.app, admin.user);
  await addMember(t.app, project, alice.user, 'contributor');
  const ds = (
    await rest(t.url, 'POST', '/datasets', { key: alice.key, body: { project_id: project.projectId } })
  ).body.unique_id;
  const ids = await rest(t.url, 'GET', `/users/${alice.user.uniqueId}/datasets`, { key: admin.key });
  expect(ids.body).toContain(ds);
  expect(
    (await rest(t.url, 'GET', `/users/${bob.user.uniqueId}/datasets`, { key: admin.key })).body,
  ).not.toContain(ds);
  expect(
    (await rest(t.url, 'GET', `/users/${alice.user.uniqueId}/datasets/${ds}`, { key: admin.key })).body,
  ).toEqual({ read: true, write: true });
  expect(
    (await rest(t.url, 'GET', `/users/${bob.user.uniqueId}/datasets/${ds}`, { key: admin.key })).body,
  ).toEqual({ read: false, write: false });
  expect((await rest(t.url, 'GET', `/users/${alice.user.uniqueId}/datasets`, { key: bob.key })).status).toBe(
    403,
  );
});

test('GraphQL: user lookup, own profile, service accounts', async () => {
  const found = await gql(t.url, bob.key, `query($id: String!) { user(id: $id) { uniqueId email } }`, {
    id: alice.user.email!,
  });
  expect(found.data.user).toEqual({ uniqueId: alice.user.uniqueId, email: null });
  const profile = await gql(
    t.url,
    bob.key,
    `mutation { updateMyProfile(input: { firstName: "Robert" }) { firstName email } }`,
  );
  expect(profile.data.updateMyProfile).toEqual({ firstName: 'Robert', email: bob.user.email });
  const sa = await gql(
    t.url,
    admin.key,
    `mutation($u: String!) { createServiceAccount(username: $u) { apiKey user { uniqueId isServiceAccount } } }`,
    { u: unique('gql-bot') },
  );
  expect(sa.data.createServiceAccount.user.isServiceAccount).toBe(true);
  const denied = await gql(
    t.url,
    bob.key,
    `mutation { createServiceAccount(username: "nope-bot") { apiKey } }`,
  );
  expect(denied.errors?.[0].extensions?.code).toBe('FORBIDDEN');
});
