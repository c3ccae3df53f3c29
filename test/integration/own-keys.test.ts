import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';
import { OWN_KEYS } from '../../src/modules/user/api-key-admin.service';

/**
 * A person's own API keys (docs/authentication.md, "Your own API keys"): created with a label
 * and an expiry, the secret answered once; listed without secrets; revoked at once; another
 * person's key is 404; platform administrators see and revoke anyone's; the limits are 422.
 */
let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
let robot: TestUser;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await startTestApp();
  alice = await makeUser(t.app);
  bob = await makeUser(t.app);
  admin = await makeUser(t.app, { admin: true });
  robot = await makeUser(t.app, { serviceAccount: true });
});
afterAll(() => t.close());

const create = (key: string, body: unknown) => rest(t.url, 'POST', '/account/apikeys', { key, body });
const list = (key: string) => rest(t.url, 'GET', '/account/apikeys', { key });

describe("a person's own keys over REST", () => {
  test('the secret is answered once, authenticates, and no listing shows it', async () => {
    const made = await create(alice.key, {
      label: 'laptop',
      expires_at: new Date(Date.now() + 30 * DAY).toISOString(),
    });
    expect(made.status).toBe(201);
    const secret = made.body.api_key as string;
    expect(made.body).toMatchObject({ label: 'laptop', status: 'active', user_id: alice.user.uniqueId });
    expect(secret.startsWith(made.body.prefix)).toBe(true);
    const me = await rest(t.url, 'GET', '/account', { key: secret });
    expect(me.status).toBe(200);
    expect(me.body.api_key.unique_id).toBe(made.body.unique_id);
    const listed = await list(alice.key);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((k: { unique_id: string }) => k.unique_id)).toContain(made.body.unique_id);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    for (const k of listed.body.items) expect(k).not.toHaveProperty('api_key');
    const gqlList = await gql(t.url, alice.key, '{ myApiKeys { uniqueId prefix label status } }');
    expect(JSON.stringify(gqlList.data)).not.toContain(secret);
    // the default expiry is 90 days
    const dflt = await create(alice.key, { label: 'default expiry' });
    const days = (new Date(dflt.body.expires_at).getTime() - Date.now()) / DAY;
    expect(Math.round(days)).toBe(OWN_KEYS.defaultDays);
  });

  test('revoking ends the key at once; again changes nothing', async () => {
    const made = await create(alice.key, { label: 'to revoke' });
    const secret = made.body.api_key as string;
    expect((await rest(t.url, 'GET', '/account', { key: secret })).status).toBe(200);
    const revoked = await rest(t.url, 'DELETE', `/account/apikeys/${made.body.unique_id}`, {
      key: alice.key,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('revoked');
    expect((await rest(t.url, 'GET', '/account', { key: secret })).status).toBe(401);
    const again = await rest(t.url, 'DELETE', `/account/apikeys/${made.body.unique_id}`, { key: alice.key });
    expect(again.status).toBe(200);
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
  });

  test("another person's key is 404, like a missing one, and keeps working", async () => {
    const made = await create(alice.key, { label: 'not bob' });
    const id = made.body.unique_id as string;
    const byBob = await rest(t.url, 'DELETE', `/account/apikeys/${id}`, { key: bob.key });
    expect(byBob.status).toBe(404);
    const missing = await rest(t.url, 'DELETE', `/account/apikeys/${'0'.repeat(26)}`, { key: bob.key });
    expect(missing.status).toBe(404);
    expect(byBob.body.detail?.replace(id, 'X')).toBe(missing.body.detail?.replace('0'.repeat(26), 'X'));
    expect(
      (await rest(t.url, 'DELETE', `/users/${bob.user.uniqueId}/apikeys/${id}`, { key: bob.key })).status,
    ).toBe(404);
    expect(
      (await rest(t.url, 'DELETE', `/users/${alice.user.uniqueId}/apikeys/${id}`, { key: bob.key })).status,
    ).toBe(403);
    expect((await rest(t.url, 'GET', `/users/${alice.user.uniqueId}/apikeys`, { key: bob.key })).status).toBe(
      403,
    );
    const g = await gql(t.url, bob.key, 'mutation($id: ID!) { revokeApiKey(id: $id) { status } }', { id });
    expect(g.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await rest(t.url, 'GET', '/account', { key: made.body.api_key })).status).toBe(200);
    expect(JSON.stringify((await list(bob.key)).body)).not.toContain(id);
  });

  test("platform administrators see and revoke anyone's keys; in normal mode they do not", async () => {
    const made = await create(alice.key, { label: 'admin revokes' });
    const id = made.body.unique_id as string;
    const seen = await rest(t.url, 'GET', `/users/${alice.user.uniqueId}/apikeys`, { key: admin.key });
    expect(seen.status).toBe(200);
    expect(seen.body.items.map((k: { unique_id: string }) => k.unique_id)).toContain(id);
    expect(JSON.stringify(seen.body)).not.toContain(made.body.api_key);
    const normal = { 'crucible-privilege-mode': 'normal' };
    expect(
      (await rest(t.url, 'DELETE', `/account/apikeys/${id}`, { key: admin.key, headers: normal })).status,
    ).toBe(404);
    const g = await gql(t.url, admin.key, 'query($u: ID!) { apiKeys(userId: $u) { uniqueId status } }', {
      u: alice.user.uniqueId,
    });
    expect(g.data.apiKeys.map((k: { uniqueId: string }) => k.uniqueId)).toContain(id);
    const revoked = await rest(t.url, 'DELETE', `/users/${alice.user.uniqueId}/apikeys/${id}`, {
      key: admin.key,
    });
    expect(revoked.status).toBe(200);
    expect((await rest(t.url, 'GET', '/account', { key: made.body.api_key })).status).toBe(401);
    // through /account/apikeys/{id} and GraphQL too
    const other = await create(alice.key, { label: 'admin revokes 2' });
    const viaGql = await gql(
      t.url,
      admin.key,
      'mutation($id: ID!) { revokeApiKey(id: $id) { status userId } }',
      {
        id: other.body.unique_id,
      },
    );
    expect(viaGql.data.revokeApiKey).toEqual({ status: 'revoked', userId: alice.user.uniqueId });
  });

  test('limits: label, expiry, the live-key cap and service accounts', async () => {
    const bad = async (body: unknown, field: string) => {
      const r = await create(bob.key, body);
      expect(r.status).toBe(422);
      expect(JSON.stringify(r.body)).toContain(field);
    };
    await bad({}, 'label');
    await bad({ label: '  ' }, 'label');
    await bad({ label: 'x'.repeat(OWN_KEYS.maxLabel + 1) }, 'label');
    await bad({ label: 'a\nb' }, 'label');
    await bad({ label: 'past', expires_at: new Date(Date.now() - 1000).toISOString() }, 'expires_at');
    await bad({ label: 'far', expires_at: new Date(Date.now() + 400 * DAY).toISOString() }, 'expires_at');
    await bad({ label: 'junk', expires_at: 'tomorrow' }, 'expires_at');
    expect((await create(bob.key, { label: 'x', surprise: 1 })).status).toBe(422);
    // none of the refusals made a key: bob holds only the key he was given
    expect((await list(bob.key)).body.items).toHaveLength(1);
    // the cap, with concurrent requests: never more than maxLive live keys
    const replies = await Promise.all(
      Array.from({ length: OWN_KEYS.maxLive + 5 }, (_, i) => create(bob.key, { label: `k${i}` })),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(OWN_KEYS.maxLive - 1);
    expect(replies.filter((r) => r.status === 422)).toHaveLength(6);
    const live = (await list(bob.key)).body.items.filter((k: { status: string }) => k.status === 'active');
    expect(live).toHaveLength(OWN_KEYS.maxLive);
    // GraphQL says the same
    const g = await gql(t.url, bob.key, 'mutation { createApiKey(label: "over") { secret } }');
    expect(g.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    // revoking one makes room again
    const one = live.find((k: { label: string }) => k.label === 'k0') ?? live[0];
    await rest(t.url, 'DELETE', `/account/apikeys/${one.unique_id}`, { key: bob.key });
    expect((await create(bob.key, { label: 'room again' })).status).toBe(201);
    // a service account's keys are an administrator's tool
    expect((await create(robot.key, { label: 'self-served' })).status).toBe(403);
  });

  test('GraphQL: createApiKey answers the secret once and it authenticates', async () => {
    const expiresAt = new Date(Date.now() + 7 * DAY).toISOString();
    const made = await gql(
      t.url,
      alice.key,
      'mutation($e: DateTimeISO) { createApiKey(label: "script", expiresAt: $e) { secret apiKey { uniqueId label status expiresAt userId } } }',
      { e: expiresAt },
    );
    expect(made.errors).toBeUndefined();
    const { secret, apiKey } = made.data.createApiKey;
    expect(apiKey).toMatchObject({
      label: 'script',
      status: 'active',
      expiresAt,
      userId: alice.user.uniqueId,
    });
    const me = await gql(t.url, secret, '{ me { orcid apiKey { uniqueId } } }');
    expect(me.data.me).toEqual({ orcid: alice.user.uniqueId, apiKey: { uniqueId: apiKey.uniqueId } });
    const revoked = await gql(t.url, alice.key, 'mutation($id: ID!) { revokeApiKey(id: $id) { status } }', {
      id: apiKey.uniqueId,
    });
    expect(revoked.data.revokeApiKey.status).toBe('revoked');
    expect((await gql(t.url, secret, '{ me { orcid } }')).status).toBe(401);
  });

  test('in a browser session: creating and revoking need the CSRF token', async () => {
    const signIn = await fetch(`${t.url}/auth/key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: alice.key }),
    });
    const csrf = ((await signIn.json()) as { csrf_token: string }).csrf_token;
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
    const post = (headers: Record<string, string>) =>
      rest(t.url, 'POST', '/account/apikeys', {
        headers: { cookie, ...headers },
        body: { label: 'from the page' },
      });
    const before = (await list(alice.key)).body.items.length;
    expect((await post({})).status).toBe(403);
    expect((await list(alice.key)).body.items.length).toBe(before);
    const made = await post({ 'x-csrf-token': csrf });
    expect(made.status).toBe(201);
    const path = `/account/apikeys/${made.body.unique_id}`;
    expect((await rest(t.url, 'DELETE', path, { headers: { cookie } })).status).toBe(403);
    const revoked = await rest(t.url, 'DELETE', path, { headers: { cookie, 'x-csrf-token': csrf } });
    expect(revoked.body.status).toBe('revoked');
  });
});

describe("keys in the account's history (docs/events.md)", () => {
  interface Entry {
    type?: string;
    event_type?: string;
    actor_id: string | null;
    payload: Record<string, unknown>;
  }
  const keyEvents = async (userId: string) => {
    const h = await rest<{ items: Entry[] }>(t.url, 'GET', `/resources/${userId}/history`, {
      key: admin.key,
    });
    expect(h.status).toBe(200);
    return h.body.items
      .filter((e) => /^account\.api_key_/.test(e.event_type ?? e.type ?? ''))
      .map((e) => ({ type: e.event_type ?? e.type, actor: e.actor_id, ...e.payload }))
      .reverse();
  };

  test('created and revoked keys, by whom, with id, label and prefix, never the secret', async () => {
    const carol = await makeUser(t.app);
    const a = await create(carol.key, { label: 'laptop' });
    const b = await create(carol.key, { label: 'instrument' });
    expect(
      (await rest(t.url, 'DELETE', `/account/apikeys/${a.body.unique_id}`, { key: carol.key })).status,
    ).toBe(200);
    // again: nothing changes, nothing is recorded
    await rest(t.url, 'DELETE', `/account/apikeys/${a.body.unique_id}`, { key: carol.key });
    // a refused creation records nothing
    expect((await create(carol.key, { label: '' })).status).toBe(422);
    // an administrator revokes every live key (b, and the factory's key)
    expect(
      (await rest(t.url, 'DELETE', `/users/${carol.user.uniqueId}/apikey`, { key: admin.key })).status,
    ).toBe(200);
    const events = await keyEvents(carol.user.uniqueId);
    const me = carol.user.uniqueId;
    const by = admin.user.uniqueId;
    expect(events.slice(0, 3)).toEqual([
      {
        type: 'account.api_key_created',
        actor: me,
        key_id: a.body.unique_id,
        label: 'laptop',
        prefix: a.body.prefix,
        expires_at: a.body.expires_at,
      },
      {
        type: 'account.api_key_created',
        actor: me,
        key_id: b.body.unique_id,
        label: 'instrument',
        prefix: b.body.prefix,
        expires_at: b.body.expires_at,
      },
      {
        type: 'account.api_key_revoked',
        actor: me,
        key_id: a.body.unique_id,
        label: 'laptop',
        prefix: a.body.prefix,
      },
    ]);
    expect(events.slice(3)).toHaveLength(2);
    expect(events.slice(3)).toContainEqual({
      type: 'account.api_key_revoked',
      actor: by,
      key_id: b.body.unique_id,
      label: 'instrument',
      prefix: b.body.prefix,
    });
    expect(events.slice(3).map((e) => e.actor)).toEqual([by, by]);
    const text = JSON.stringify(events);
    for (const secret of [a.body.api_key, b.body.api_key, carol.key]) expect(text).not.toContain(secret);
  });
});
