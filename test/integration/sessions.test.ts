import { startTestApp, type TestApp } from '../support/app';
import { rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';
import { makeDataset } from '../support/files';
import { UserSession } from '../../src/modules/session/session.entity';
import { User } from '../../src/modules/user/user.entity';

/**
 * Browser sessions (docs/authentication.md): an API key turned into a session cookie once, the
 * cookie authenticating REST and GraphQL, the CSRF check on every write made with it (REST,
 * GraphQL, GraphQL multipart), the ends of a session, and Bearer keys as before.
 */

let t: TestApp;
let alice: TestUser;
beforeAll(async () => {
  // the test client stands for the https proxy in front (X-Forwarded-Proto)
  t = await startTestApp({ TRUST_PROXY: 'loopback' });
  alice = await makeUser(t.app);
});
afterAll(() => t.close());

interface Session {
  cookie: string;
  csrf: string;
  setCookie: string;
}

async function signIn(key: string, headers: Record<string, string> = {}): Promise<Session> {
  const res = await fetch(`${t.url}/auth/key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ api_key: key }),
  });
  const body = (await res.json()) as { csrf_token: string; signed_in: boolean };
  expect(res.status).toBe(200);
  expect(body.signed_in).toBe(true);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0], csrf: body.csrf_token, setCookie };
}

const withSession = (s: Session, csrf = true, extra: Record<string, string> = {}) => ({
  cookie: s.cookie,
  ...(csrf ? { 'x-csrf-token': s.csrf } : {}),
  ...extra,
});

async function graphql(headers: Record<string, string>, query: string, variables = {}) {
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: { message: string }[] } };
}

const session = async (cookie: string) => {
  const res = await fetch(`${t.url}/auth/session`, { headers: { cookie } });
  return (await res.json()) as { signed_in: boolean; csrf_token: string | null; user: { unique_id: string } };
};

describe('a session from an API key', () => {
  test('the cookie is HttpOnly, SameSite=Lax, Secure only over https; GET /auth/session reports it', async () => {
    const s = await signIn(alice.key);
    expect(s.setCookie).toMatch(/^catalog_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
    const https = await signIn(alice.key, { 'x-forwarded-proto': 'https' });
    expect(https.setCookie).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    const now = await session(s.cookie);
    expect(now).toMatchObject({
      signed_in: true,
      csrf_token: s.csrf,
      user: { unique_id: alice.user.uniqueId },
    });
    expect(await session('catalog_session=' + 'x'.repeat(43))).toMatchObject({
      signed_in: false,
      csrf_token: null,
    });
    const anonymous = await fetch(`${t.url}/auth/session`);
    expect(anonymous.headers.get('cache-control')).toBe('no-store');
  });

  test('reads need only the cookie, on REST and GraphQL GET', async () => {
    const s = await signIn(alice.key);
    const account = await rest(t.url, 'GET', '/account', { headers: { cookie: s.cookie } });
    expect(account.status).toBe(200);
    expect(account.body.user_unique_id).toBe(alice.user.uniqueId);
    expect(account.body.api_key.prefix).toBe('session');
    const get = await fetch(`${t.url}/graphql?query=${encodeURIComponent('{ me { orcid } }')}`, {
      headers: { cookie: s.cookie, 'apollo-require-preflight': 'true' },
    });
    expect(((await get.json()) as { data: { me: { orcid: string } } }).data.me.orcid).toBe(
      alice.user.uniqueId,
    );
    // the secret of a session is never shown as an API key
    const apikey = await rest(t.url, 'GET', '/account/apikey', { headers: { cookie: s.cookie } });
    expect(apikey.status).toBe(409);
  });

  test('REST writes with the cookie need the CSRF token and this origin', async () => {
    const s = await signIn(alice.key);
    const patch = (headers: Record<string, string>) =>
      rest(t.url, 'PATCH', '/account/profile', { headers, body: { first_name: 'Alice' } });
    const none = await patch(withSession(s, false));
    expect(none.status).toBe(403);
    expect(none.body.detail).toMatch(/CSRF token/);
    expect((await patch({ cookie: s.cookie, 'x-csrf-token': 'A'.repeat(43) })).status).toBe(403);
    expect((await patch(withSession(s, true, { origin: 'http://evil.example' }))).status).toBe(403);
    expect((await patch(withSession(s, true, { 'sec-fetch-site': 'cross-site' }))).status).toBe(403);
    expect((await patch(withSession(s, true, { 'sec-fetch-site': 'same-site' }))).status).toBe(403);
    const ok = await patch(withSession(s, true, { origin: t.url, 'sec-fetch-site': 'same-origin' }));
    expect(ok.status).toBe(200);
    expect(ok.body.first_name).toBe('Alice');
  });

  test('GraphQL mutations with the cookie need the CSRF token', async () => {
    const s = await signIn(alice.key);
    const m = 'mutation { updateMyProfile(input: { lastName: "Liddell" }) { lastName } }';
    const refused = await graphql(withSession(s, false), m);
    expect(refused.status).toBe(403);
    expect(refused.body.errors?.[0].message).toMatch(/CSRF token/);
    const cross = await graphql(withSession(s, true, { origin: 'http://evil.example' }), m);
    expect(cross.status).toBe(403);
    const ok = await graphql(withSession(s), m);
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.updateMyProfile.lastName).toBe('Liddell');
  });

  test('GraphQL multipart uploads with the cookie need the CSRF token', async () => {
    const s = await signIn(alice.key);
    const dataset = await makeDataset(t, alice);
    const form = () => {
      const f = new FormData();
      f.append(
        'operations',
        JSON.stringify({
          query:
            'mutation ($d: ID!, $f: Upload!) { addDatasetFile(dataset: $d, file: $f) { file { filename } } }',
          variables: { d: dataset, f: null },
        }),
      );
      f.append('map', JSON.stringify({ 0: ['variables.f'] }));
      f.append('0', new Blob(['hello']), 'hello.txt');
      return f;
    };
    const send = (headers: Record<string, string>) =>
      fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'apollo-require-preflight': 'true', ...headers },
        body: form(),
      });
    const refused = await send(withSession(s, false));
    expect(refused.status).toBe(403);
    const ok = await send(withSession(s));
    const body = (await ok.json()) as { data: { addDatasetFile: { file: { filename: string } } } };
    expect(body.data.addDatasetFile.file.filename).toBe('hello.txt');
  });

  test('a Bearer key is unaffected by the CSRF rule, and wins over a cookie', async () => {
    const s = await signIn(alice.key);
    const bob = await makeUser(t.app);
    const res = await rest(t.url, 'PATCH', '/account/profile', {
      key: bob.key,
      headers: { cookie: s.cookie, origin: 'http://evil.example' },
      body: { first_name: 'Bob' },
    });
    expect(res.status).toBe(200);
    expect(res.body.unique_id ?? res.body.orcid ?? bob.user.uniqueId).toBe(bob.user.uniqueId);
    const bad = await rest(t.url, 'GET', '/account', { key: 'cat_not-a-key', headers: { cookie: s.cookie } });
    expect(bad.status).toBe(401);
  });

  test('sign-out ends the session (with the CSRF token); a new sign-in rotates it', async () => {
    const s = await signIn(alice.key);
    const noToken = await fetch(`${t.url}/auth/logout`, { method: 'POST', headers: { cookie: s.cookie } });
    expect(noToken.status).toBe(403);
    expect((await rest(t.url, 'GET', '/account', { headers: { cookie: s.cookie } })).status).toBe(200);
    const out = await fetch(`${t.url}/auth/logout`, { method: 'POST', headers: withSession(s) });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^catalog_session=; .*Max-Age=0/);
    const after = await rest(t.url, 'GET', '/account', { headers: { cookie: s.cookie } });
    expect(after.status).toBe(401);
    expect(after.body.detail).toMatch(/session has ended/);

    const first = await signIn(alice.key);
    const second = await signIn(alice.key, { cookie: first.cookie });
    expect(second.cookie).not.toBe(first.cookie);
    expect((await rest(t.url, 'GET', '/account', { headers: { cookie: first.cookie } })).status).toBe(401);
    expect((await rest(t.url, 'GET', '/account', { headers: { cookie: second.cookie } })).status).toBe(200);
  });

  test('a session ends when revoked, idle too long, past its lifetime, or its user is disabled', async () => {
    const em = t.app.orm.em.fork();
    const carol = await makeUser(t.app);
    const ok = async (s: Session) =>
      (await rest(t.url, 'GET', '/account', { headers: { cookie: s.cookie } })).status === 200;

    const revoked = await signIn(carol.key);
    expect(await ok(revoked)).toBe(true);
    expect(await t.app.services.session.endAll(em, carol.user.uniqueId)).toBe(1);
    expect(await ok(revoked)).toBe(false);

    const idle = await signIn(carol.key);
    const idleId = (await session(idle.cookie)) as unknown as { session_id: string };
    await em.nativeUpdate(
      UserSession,
      { uniqueId: idleId.session_id },
      { lastSeenAt: new Date(Date.now() - 13 * 3600_000) },
    );
    expect(await ok(idle)).toBe(false);

    const old = await signIn(carol.key);
    const oldId = (await session(old.cookie)) as unknown as { session_id: string };
    await em.nativeUpdate(
      UserSession,
      { uniqueId: oldId.session_id },
      { expiresAt: new Date(Date.now() - 1000) },
    );
    expect(await ok(old)).toBe(false);

    const disabled = await signIn(carol.key);
    expect(await ok(disabled)).toBe(true);
    await em.nativeUpdate(User, { uniqueId: carol.user.uniqueId }, { disabledAt: new Date() });
    expect(await ok(disabled)).toBe(false);
  });

  test('bad sign-in requests are 4xx and start nothing', async () => {
    const post = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
      fetch(`${t.url}/auth/key`, { method: 'POST', headers, body });
    const cases: [string, Record<string, string> | undefined, number][] = [
      [JSON.stringify({ api_key: alice.key }), { 'content-type': 'text/plain' }, 415],
      ['{', undefined, 422],
      ['{}', undefined, 422],
      ['[]', undefined, 422],
      [JSON.stringify({ api_key: alice.key, extra: 1 }), undefined, 422],
      [JSON.stringify({ api_key: 'cat_wrong' }), undefined, 401],
      [JSON.stringify({ api_key: 'x'.repeat(10_000) }), undefined, 413],
      [
        JSON.stringify({ api_key: alice.key }),
        { 'content-type': 'application/json', origin: 'http://evil.example' },
        403,
      ],
    ];
    for (const [body, headers, status] of cases) {
      const res = await post(body, headers);
      expect([body.slice(0, 40), res.status]).toEqual([body.slice(0, 40), status]);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    const get = await fetch(`${t.url}/auth/key`);
    expect(get.status).toBe(405);
  });

  test('sign out everywhere (yourself, or an admin for anyone) and activating a pending account', async () => {
    const em = t.app.orm.em.fork();
    const admin = await makeUser(t.app, { admin: true });
    const dora = await makeUser(t.app);
    const a = await signIn(dora.key);
    const b = await signIn(dora.key);
    const ok = async (s: Session) =>
      (await rest(t.url, 'GET', '/account', { headers: { cookie: s.cookie } })).status === 200;
    const self = await graphql(withSession(a), 'mutation { signOutEverywhere }');
    expect(self.body.data.signOutEverywhere).toBe(2);
    expect([await ok(a), await ok(b)]).toEqual([false, false]);

    const c = await signIn(dora.key);
    const stranger = await rest(t.url, 'DELETE', `/users/${dora.user.uniqueId}/sessions`, { key: alice.key });
    expect(stranger.status).toBe(403);
    const byAdmin = await rest(t.url, 'DELETE', `/users/${dora.user.uniqueId}/sessions`, { key: admin.key });
    expect(byAdmin.body).toEqual({ ended: 1 });
    expect(await ok(c)).toBe(false);
    // both are in the account's history, with who ended them; nothing for a call that ended none
    expect(
      (await rest(t.url, 'DELETE', `/users/${dora.user.uniqueId}/sessions`, { key: admin.key })).body,
    ).toEqual({
      ended: 0,
    });
    const history = await rest(t.url, 'GET', `/resources/${dora.user.uniqueId}/history`, {
      key: dora.key,
      query: { limit: 100 },
    });
    const ended = (
      history.body.items as { event_type?: string; type?: string; actor_id: string; payload: unknown }[]
    )
      .filter((e) => (e.event_type ?? e.type) === 'account.sessions_ended')
      .map((e) => ({ actor: e.actor_id, payload: e.payload }))
      .reverse();
    expect(ended).toEqual([
      { actor: dora.user.uniqueId, payload: { sessions_ended: 2, reason: 'signed_out_everywhere' } },
      { actor: admin.user.uniqueId, payload: { sessions_ended: 1, reason: 'signed_out_everywhere' } },
    ]);

    await em.nativeUpdate(User, { uniqueId: dora.user.uniqueId }, { pendingSince: new Date() });
    const refused = await fetch(`${t.url}/auth/key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: dora.key }),
    });
    expect(refused.status).toBe(401);
    expect(
      (await rest(t.url, 'POST', `/users/${dora.user.uniqueId}/activate`, { key: alice.key })).status,
    ).toBe(403);
    const activated = await graphql(
      { authorization: `Bearer ${admin.key}` },
      'mutation($id: ID!) { activateUser(id: $id) { uniqueId } }',
      {
        id: dora.user.uniqueId,
      },
    );
    expect(activated.body.data.activateUser.uniqueId).toBe(dora.user.uniqueId);
    expect(await ok(await signIn(dora.key))).toBe(true);
    expect(
      (await rest(t.url, 'POST', '/users/0000-0000-0000-0000/activate', { key: admin.key })).status,
    ).toBe(404);
  });
});
