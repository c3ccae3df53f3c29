import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';
import { ApiKey } from '../../src/modules/user/api-key.entity';
import { hashApiKey } from '../../src/core/auth/api-keys';

let t: TestApp;
let alice: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  alice = await makeUser(t.app, { email: 'alice.auth@example.org' });
});
afterAll(() => t.close());

const ME = '{ me { orcid isPlatformAdmin user { uniqueId username email } apiKey { prefix } } }';

describe('authentication', () => {
  test('health needs no key, on both prefixes', async () => {
    for (const path of ['/health/live', '/health/ready']) {
      const res = await fetch(`${t.url}${path}`);
      expect(res.status).toBe(200);
      const api = await rest(t.url, 'GET', path);
      expect(api.status).toBe(200);
    }
    const ready = await rest(t.url, 'GET', '/health/ready');
    expect(ready.body).toMatchObject({ status: 'ok', db: 'ok', database: { status: 'ok' } });
    expect(typeof ready.body.db_ms).toBe('number');
    expect(typeof ready.body.version).toBe('string');
    expect(ready.body.schema_revision).toMatch(/^Migration\d{14}/);
    expect(ready.body.deployment).toHaveProperty('git_commit');
    // the 3.2 client's nested form
    expect(Object.keys(ready.body.build).sort()).toEqual(['api_version', 'branch', 'git_commit']);
    expect(ready.body.build).toMatchObject({
      api_version: ready.body.version,
      git_commit: ready.body.deployment.git_commit,
    });
    expect(ready.body.database.schema_revisions).toEqual([ready.body.schema_revision]);
  });

  test('REST: no key, malformed header, unknown key -> 401 with a detail', async () => {
    const none = await rest(t.url, 'GET', '/account');
    expect(none.status).toBe(401);
    expect(none.body.detail).toMatch(/API key/);
    const malformed = await rest(t.url, 'GET', '/account', { headers: { authorization: 'Token abc' } });
    expect(malformed.status).toBe(401);
    const unknown = await rest(t.url, 'GET', '/datasets', { key: 'cat_not-a-real-key' });
    expect(unknown.status).toBe(401);
  });

  test('revoked and expired keys are refused', async () => {
    const bob = await makeUser(t.app);
    expect((await rest(t.url, 'GET', '/account', { key: bob.key })).status).toBe(200);
    const em = t.app.orm.em.fork();
    await em.nativeUpdate(ApiKey, { hash: hashApiKey(bob.key) }, { revokedAt: new Date() });
    expect((await rest(t.url, 'GET', '/account', { key: bob.key })).status).toBe(401);
    expect((await gql(t.url, bob.key, ME)).status).toBe(401);

    const carol = await makeUser(t.app);
    await em.nativeUpdate(
      ApiKey,
      { hash: hashApiKey(carol.key) },
      { expiresAt: new Date(Date.now() - 1000) },
    );
    expect((await rest(t.url, 'GET', '/account', { key: carol.key })).status).toBe(401);
  });

  test('GraphQL: operations need a key; introspection does not', async () => {
    const anonymous = await gql(t.url, null, ME);
    expect(anonymous.status).toBe(401);
    expect(anonymous.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const bad = await gql(t.url, 'cat_bogus', ME);
    expect(bad.status).toBe(401);
    const introspection = await gql(t.url, null, '{ __schema { queryType { name } } }');
    expect(introspection.data.__schema.queryType.name).toBe('Query');
  });

  test('GraphQL answers are per caller: never stored by a cache', async () => {
    for (const key of [alice.key, null]) {
      const res = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify({ query: key ? ME : '{ __typename }' }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  test('whoami over REST and GraphQL', async () => {
    const whoami = await rest(t.url, 'GET', '/account', { key: alice.key });
    expect(whoami.status).toBe(200);
    expect(whoami.body.user_unique_id).toBe(alice.user.uniqueId);
    expect(whoami.body.user_info).toMatchObject({
      unique_id: alice.user.uniqueId,
      username: alice.user.username,
      email: 'alice.auth@example.org',
      is_service_account: false,
    });
    expect(typeof whoami.body.user_info.id).toBe('number');
    expect(whoami.body.access_group_ids).toContain(alice.user.uniqueId);
    const me = await gql(t.url, alice.key, ME);
    expect(me.data.me).toMatchObject({
      orcid: alice.user.uniqueId,
      isPlatformAdmin: false,
      user: { uniqueId: alice.user.uniqueId, email: 'alice.auth@example.org' },
    });
    expect(alice.key.startsWith(me.data.me.apiKey.prefix)).toBe(true);
  });

  test('keys are stored hashed', async () => {
    const row = await t.app.orm.em.fork().findOneOrFail(ApiKey, { hash: hashApiKey(alice.key) });
    expect(row.hash).toHaveLength(64);
    expect(JSON.stringify(row)).not.toContain(alice.key);
  });

  test('every response carries a request id, echoing a sane incoming one', async () => {
    const own = await rest(t.url, 'GET', '/health/live', { headers: { 'x-request-id': 'trace-123' } });
    expect(own.headers.get('x-request-id')).toBe('trace-123');
    const generated = await rest(t.url, 'GET', '/health/live', {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('unknown routes answer 404 with a detail', async () => {
    const res = await rest(t.url, 'GET', '/no/such/route', { key: alice.key });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBeDefined();
  });

  test('the explorer page is served offline', async () => {
    const page = await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/graphql/assets/graphiql.js');
    expect(html).not.toMatch(/https?:\/\/(?!\S*localhost)[a-z]/i);
    for (const asset of ['react.js', 'react-dom.js', 'graphiql.js', 'graphiql.css']) {
      expect((await fetch(`${t.url}/graphql/assets/${asset}`)).status).toBe(200);
    }
  });
});
