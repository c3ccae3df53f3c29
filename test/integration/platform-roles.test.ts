import { startTestApp, type TestApp } from '../support/app';
import { rest } from '../support/http';
import { makeUser, unique, type TestUser } from '../support/factories';

/**
 * Platform roles and service-account administration (docs/access-control.md §1a): setting a
 * role, revoking a user's keys, the service-account admin records with their key status.
 */
let t: TestApp;
let admin: TestUser;
let bob: TestUser;
const ELEVATED = { 'crucible-privilege-mode': 'elevated' };
const NORMAL = { 'crucible-privilege-mode': 'normal' };

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  bob = await makeUser(t.app);
});
afterAll(() => t.close());

describe('platform roles', () => {
  test('PATCH /users/{id}/platform_role changes what the user may create', async () => {
    const before = await rest(t.url, 'GET', '/account/profile', { key: bob.key });
    expect(before.body.platform_role).toBe('contributor');
    expect(before.body.capabilities.can_create_project).toBe(false);
    const none = await rest(t.url, 'PATCH', `/users/${bob.user.uniqueId}/platform_role`, {
      key: admin.key,
      headers: ELEVATED,
      body: { platform_role: 'none' },
    });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({
      unique_id: bob.user.uniqueId,
      platform_role: 'none',
      is_platform_admin: false,
    });
    const refused = await rest(t.url, 'POST', '/datasets', {
      key: bob.key,
      body: { dataset_name: unique('x') },
    });
    expect(refused.status).toBe(403);
    const promoted = await rest(t.url, 'PATCH', `/users/${bob.user.username}/platform_role`, {
      key: admin.key,
      body: { platform_role: 'admin' },
    });
    expect(promoted.body).toMatchObject({ platform_role: 'admin' });
    const profile = await rest(t.url, 'GET', '/account/profile', { key: bob.key });
    expect(profile.body.authorization).toEqual({
      platform_role: 'admin',
      effective_privilege_mode: 'elevated',
      can_elevate: true,
    });
    expect(
      (
        await rest(t.url, 'POST', '/projects', {
          key: bob.key,
          body: { project_id: unique('by-bob'), title: 'Bob' },
        })
      ).status,
    ).toBe(201);
    await rest(t.url, 'PATCH', `/users/${bob.user.uniqueId}/platform_role`, {
      key: admin.key,
      body: { platform_role: 'contributor' },
    });
  });

  test('bad roles are 422, support is refused, non-admins and normal mode 403, unknown users 404', async () => {
    for (const role of ['support', 'ADMIN', '', 3, null]) {
      const r = await rest(t.url, 'PATCH', `/users/${bob.user.uniqueId}/platform_role`, {
        key: admin.key,
        body: { platform_role: role },
      });
      expect(r.status).toBe(422);
      expect(JSON.stringify(r.body)).toContain('platform_role');
    }
    const extra = await rest(t.url, 'PATCH', `/users/${bob.user.uniqueId}/platform_role`, {
      key: admin.key,
      body: { platform_role: 'none', other: 1 },
    });
    expect(extra.status).toBe(422);
    const self = await rest(t.url, 'PATCH', `/users/${bob.user.uniqueId}/platform_role`, {
      key: bob.key,
      body: { platform_role: 'admin' },
    });
    expect(self.status).toBe(403);
    const normal = await rest(t.url, 'PATCH', `/users/${bob.user.uniqueId}/platform_role`, {
      key: admin.key,
      headers: NORMAL,
      body: { platform_role: 'admin' },
    });
    expect(normal.status).toBe(403);
    const unknown = await rest(t.url, 'PATCH', '/users/nobody-at-all/platform_role', {
      key: admin.key,
      body: { platform_role: 'none' },
    });
    expect(unknown.status).toBe(404);
    const after = await rest(t.url, 'GET', `/users/${bob.user.uniqueId}`, { key: admin.key });
    expect(after.body.platform_role).toBe('contributor');
  });

  test('DELETE /users/{id}/apikey revokes every key of the user', async () => {
    const carol = await makeUser(t.app);
    expect((await rest(t.url, 'GET', '/account', { key: carol.key })).status).toBe(200);
    expect(
      (await rest(t.url, 'DELETE', `/users/${carol.user.uniqueId}/apikey`, { key: bob.key })).status,
    ).toBe(403);
    const revoked = await rest(t.url, 'DELETE', `/users/${carol.user.uniqueId}/apikey`, {
      key: admin.key,
      headers: ELEVATED,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked).toBe(1);
    expect((await rest(t.url, 'GET', '/account', { key: carol.key })).status).toBe(401);
    const status = await rest(t.url, 'GET', `/users/${carol.user.uniqueId}/apikey/verify`, {
      key: admin.key,
    });
    expect(status.body.valid).toBe(false);
  });
});

describe('service-account administration', () => {
  test('create, list, get, set role and rotate: each answers the admin record with api_key_status', async () => {
    const name = unique('svc-admin');
    const created = await rest(t.url, 'POST', '/service_accounts', {
      key: admin.key,
      headers: ELEVATED,
      body: { username: name },
    });
    expect(created.status).toBe(201);
    const id = created.body.unique_id as string;
    expect(created.body).toMatchObject({
      username: name,
      platform_role: 'contributor',
      is_service_account: true,
      api_key_status: { valid: true, expires_at: null },
    });
    expect(typeof created.body.api_key).toBe('string');
    expect(typeof created.body.api_key_status.created_at).toBe('string');

    const listed = await rest(t.url, 'GET', '/service_accounts', {
      key: admin.key,
      query: { q: name.slice(4) },
    });
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBe(1);
    expect(listed.body.items[0]).toMatchObject({ unique_id: id, platform_role: 'contributor' });
    expect(listed.body.items[0].api_key_status.valid).toBe(true);
    const none = await rest(t.url, 'GET', '/service_accounts', { key: admin.key, query: { q: 'no%such_' } });
    expect(none.body).toEqual({ items: [], total: 0 });

    const got = await rest(t.url, 'GET', `/service_accounts/${id}`, { key: admin.key });
    expect(got.body).toMatchObject({ unique_id: id, username: name, first_name: null, last_name: null });
    expect(Object.keys(got.body.api_key_status).sort()).toEqual(['created_at', 'expires_at', 'valid']);
    expect((await rest(t.url, 'GET', `/service_accounts/${name}`, { key: admin.key })).body.unique_id).toBe(
      id,
    );

    const role = await rest(t.url, 'PATCH', `/service_accounts/${id}`, {
      key: admin.key,
      body: { platform_role: 'none' },
    });
    expect(role.status).toBe(200);
    expect(role.body.platform_role).toBe('none');
    const svcProfile = await rest(t.url, 'GET', '/account/profile', { key: created.body.api_key });
    expect(svcProfile.body.capabilities.can_create_dataset).toBe(false);

    const rotated = await rest(t.url, 'POST', `/service_accounts/${id}/rotate_key`, { key: admin.key });
    expect(rotated.body).toMatchObject({
      unique_id: id,
      platform_role: 'none',
      api_key_status: { valid: true },
    });
    expect((await rest(t.url, 'GET', '/account', { key: created.body.api_key })).status).toBe(401);
  });

  test('people are not service accounts (404); non-admins and normal mode 403; bad input 422', async () => {
    expect(
      (await rest(t.url, 'GET', `/service_accounts/${bob.user.uniqueId}`, { key: admin.key })).status,
    ).toBe(404);
    const patchPerson = await rest(t.url, 'PATCH', `/service_accounts/${bob.user.uniqueId}`, {
      key: admin.key,
      body: { platform_role: 'admin' },
    });
    expect(patchPerson.status).toBe(404);
    expect((await rest(t.url, 'GET', '/service_accounts', { key: bob.key })).status).toBe(403);
    expect((await rest(t.url, 'GET', '/service_accounts', { key: admin.key, headers: NORMAL })).status).toBe(
      403,
    );
    const long = await rest(t.url, 'GET', '/service_accounts', {
      key: admin.key,
      query: { q: 'x'.repeat(201) },
    });
    expect(long.status).toBe(422);
    const limit = await rest(t.url, 'GET', '/service_accounts', { key: admin.key, query: { limit: -1 } });
    expect(limit.status).toBe(422);
  });
});
