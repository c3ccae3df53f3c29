import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, unique, type TestUser } from '../support/factories';
import { User } from '../../src/modules/user/user.entity';
import { csrfTokenFor } from '../../src/core/auth/sessions';

/**
 * Administrators browse as members until they elevate (docs/authentication.md, "Elevation"): a
 * session starts in the member's view, `POST /auth/session/elevate` and
 * `POST /auth/session/drop-elevation` switch it (CSRF-protected, administrators only), every
 * request of the session acts in its mode unless a header asks otherwise, each switch is in the
 * account's history, and Bearer keys keep their rule (no header: elevated).
 */
let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let privateDataset: string;

beforeAll(async () => {
  // the events' address comes from X-Forwarded-For, which only a trusted proxy may set
  t = await startTestApp({ TRUST_PROXY: 'loopback' });
  admin = await makeUser(t.app, { admin: true });
  alice = await makeUser(t.app);
  const made = await rest(t.url, 'POST', '/datasets', {
    key: alice.key,
    body: { dataset_name: unique('alice private'), public: false },
  });
  expect(made.status).toBe(201);
  privateDataset = made.body.unique_id;
});
afterAll(() => t.close());

interface Session {
  cookie: string;
  csrf: string;
  id: string;
}

interface SessionBody {
  signed_in: boolean;
  session_id: string | null;
  privilege_mode: string | null;
  can_elevate: boolean;
  user: { is_platform_admin: boolean } | null;
}

let n = 0;
/** a client address of its own per test (the service trusts X-Forwarded-For) */
const address = () => `198.51.100.${++n}`;

async function signIn(key: string): Promise<Session> {
  const res = await fetch(`${t.url}/auth/key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: key }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { csrf_token: string; session_id: string } & SessionBody;
  expect(body.privilege_mode).toBe('normal');
  return {
    cookie: (res.headers.get('set-cookie') ?? '').split(';')[0],
    csrf: body.csrf_token,
    id: body.session_id,
  };
}

const state = async (s: Session): Promise<SessionBody> =>
  (await (await fetch(`${t.url}/auth/session`, { headers: { cookie: s.cookie } })).json()) as SessionBody;

/** `POST /auth/session/<action>` with the session's cookie and (unless `csrf` is false) its token. */
async function switchTo(
  s: Session,
  action: 'elevate' | 'drop-elevation',
  opts: { csrf?: boolean; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${t.url}/auth/session/${action}`, {
    method: 'POST',
    headers: {
      cookie: s.cookie,
      ...(opts.csrf === false ? {} : { 'x-csrf-token': s.csrf }),
      ...(opts.headers ?? {}),
    },
  });
  return { status: res.status, body: (await res.json()) as SessionBody & { detail?: string } };
}

const asSession = (s: Session, extra: Record<string, string> = {}) => ({ cookie: s.cookie, ...extra });
const readPrivate = async (s: Session, extra: Record<string, string> = {}) =>
  (await rest(t.url, 'GET', `/datasets/${privateDataset}`, { headers: asSession(s, extra) })).status;
const listUsers = async (s: Session, extra: Record<string, string> = {}) =>
  (await rest(t.url, 'GET', '/users', { headers: asSession(s, extra), query: { limit: 1 } })).status;

interface Entry {
  event_type?: string;
  type?: string;
  payload?: Record<string, unknown>;
}
const switches = async (userId: string, sessionId: string) => {
  const h = await rest<{ items: Entry[] }>(t.url, 'GET', `/resources/${userId}/history`, {
    key: admin.key,
    query: { limit: 100 },
  });
  expect(h.status).toBe(200);
  return h.body.items
    .filter((e) => (e.payload as { session_id?: string } | undefined)?.session_id === sessionId)
    .map((e) => ({ type: e.event_type ?? e.type, payload: e.payload }))
    .filter((e) => e.type === 'account.elevated' || e.type === 'account.elevation_dropped')
    .reverse();
};

describe('an administrator’s session', () => {
  test('starts in the member’s view: ordinary visibility, no administration, reported as normal', async () => {
    const s = await signIn(admin.key);
    expect(await state(s)).toMatchObject({
      privilege_mode: 'normal',
      can_elevate: true,
      user: { is_platform_admin: true },
    });
    expect(await readPrivate(s)).toBe(404);
    expect(await listUsers(s)).toBe(403);
    const profile = await rest(t.url, 'GET', '/account/profile', { headers: asSession(s) });
    expect(profile.body.authorization).toMatchObject({
      effective_privilege_mode: 'normal',
      can_elevate: true,
    });
    const me = await gql(
      t.url,
      null,
      '{ me { isPlatformAdmin effectivePrivilegeMode } }',
      {},
      {
        ...asSession(s),
        'x-csrf-token': s.csrf,
      },
    );
    expect(me.data.me).toEqual({ isPlatformAdmin: false, effectivePrivilegeMode: 'normal' });
  });

  test('elevates and drops elevation explicitly; every request of the session follows; a header still wins', async () => {
    const s = await signIn(admin.key);
    const from = address();
    const up = await switchTo(s, 'elevate', { headers: { 'x-forwarded-for': from } });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ privilege_mode: 'elevated', can_elevate: true, session_id: s.id });
    expect((await state(s)).privilege_mode).toBe('elevated');
    expect(await readPrivate(s)).toBe(200);
    expect(await listUsers(s)).toBe(200);
    // an explicit header on one request still decides that request
    expect(await readPrivate(s, { 'crucible-privilege-mode': 'normal' })).toBe(404);
    // elevating again changes nothing and records nothing
    expect((await switchTo(s, 'elevate', { headers: { 'x-forwarded-for': from } })).status).toBe(200);
    // another session of the same administrator (another browser) is still a member's
    const other = await signIn(admin.key);
    expect(await readPrivate(other)).toBe(404);

    const down = await switchTo(s, 'drop-elevation', { headers: { 'x-forwarded-for': from } });
    expect(down.status).toBe(200);
    expect(down.body.privilege_mode).toBe('normal');
    expect(await readPrivate(s)).toBe(404);
    expect(await readPrivate(s, { 'crucible-privilege-mode': 'elevated' })).toBe(200);

    expect(await switches(admin.user.uniqueId, s.id)).toEqual([
      { type: 'account.elevated', payload: { session_id: s.id, address: from } },
      { type: 'account.elevation_dropped', payload: { session_id: s.id, address: from } },
    ]);
  });

  test('a switch is a write made with the cookie: the CSRF token and this site, or 403 and nothing changes', async () => {
    const s = await signIn(admin.key);
    const none = await switchTo(s, 'elevate', { csrf: false });
    expect(none.status).toBe(403);
    expect(none.body.detail).toMatch(/CSRF token/);
    expect((await switchTo(s, 'elevate', { headers: { origin: 'http://evil.example' } })).status).toBe(403);
    expect((await switchTo(s, 'elevate', { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect((await state(s)).privilege_mode).toBe('normal');
    expect(await readPrivate(s)).toBe(404);
    expect(await switches(admin.user.uniqueId, s.id)).toEqual([]);
    // no session at all, or an ended one: 401
    const anonymous = await fetch(`${t.url}/auth/session/elevate`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    const unknown = 'x'.repeat(43);
    const ended = await fetch(`${t.url}/auth/session/elevate`, {
      method: 'POST',
      headers: { cookie: `catalog_session=${unknown}`, 'x-csrf-token': csrfTokenFor(unknown) },
    });
    expect(ended.status).toBe(401);
    // a parameter the route does not take
    const param = await fetch(`${t.url}/auth/session/elevate?mode=elevated`, {
      method: 'POST',
      headers: { cookie: s.cookie, 'x-csrf-token': s.csrf },
    });
    expect(param.status).toBe(422);
    expect((await state(s)).privilege_mode).toBe('normal');
  });

  test('a session started by a new sign-in is a member’s again, whatever the last one was', async () => {
    const s = await signIn(admin.key);
    expect((await switchTo(s, 'elevate')).status).toBe(200);
    const res = await fetch(`${t.url}/auth/key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: s.cookie },
      body: JSON.stringify({ api_key: admin.key }),
    });
    const body = (await res.json()) as SessionBody;
    expect(body.privilege_mode).toBe('normal');
  });

  test('an administrator demoted while elevated acts as a member (never a 403 on every request)', async () => {
    const demoted = await makeUser(t.app, { admin: true });
    const s = await signIn(demoted.key);
    expect((await switchTo(s, 'elevate')).status).toBe(200);
    await t.app.orm.em
      .fork()
      .nativeUpdate(User, { uniqueId: demoted.user.uniqueId }, { platformRole: 'contributor' });
    expect(await state(s)).toMatchObject({ privilege_mode: 'normal', can_elevate: false });
    expect(await readPrivate(s)).toBe(404);
    expect((await rest(t.url, 'GET', '/account', { headers: asSession(s) })).status).toBe(200);
    expect((await switchTo(s, 'elevate')).status).toBe(403);
  });
});

describe('anyone else', () => {
  test('a member cannot elevate: 403, the session and the history unchanged; the header elevated is 403 too', async () => {
    const s = await signIn(alice.key);
    expect(await state(s)).toMatchObject({ privilege_mode: 'normal', can_elevate: false });
    const up = await switchTo(s, 'elevate');
    expect(up.status).toBe(403);
    expect(up.body.detail).toMatch(/platform administrators/);
    expect((await state(s)).privilege_mode).toBe('normal');
    expect(await switches(alice.user.uniqueId, s.id)).toEqual([]);
    expect(await listUsers(s, { 'crucible-privilege-mode': 'elevated' })).toBe(403);
    // dropping an elevation one does not have is allowed and changes nothing
    const down = await switchTo(s, 'drop-elevation');
    expect(down.status).toBe(200);
    expect(down.body.privilege_mode).toBe('normal');
    expect(await switches(alice.user.uniqueId, s.id)).toEqual([]);
  });

  test('Bearer keys keep their rule: no header is elevated for an administrator, whatever their sessions hold', async () => {
    const s = await signIn(admin.key);
    expect((await switchTo(s, 'drop-elevation')).status).toBe(200);
    const bearer = await rest(t.url, 'GET', `/datasets/${privateDataset}`, { key: admin.key });
    expect(bearer.status).toBe(200);
    expect((await rest(t.url, 'GET', '/users', { key: admin.key, query: { limit: 1 } })).status).toBe(200);
    const normal = await rest(t.url, 'GET', `/datasets/${privateDataset}`, {
      key: admin.key,
      headers: { 'crucible-privilege-mode': 'normal' },
    });
    expect(normal.status).toBe(404);
    // a Bearer request carrying the cookie too is the key's: the session's mode does not apply
    const both = await rest(t.url, 'GET', `/datasets/${privateDataset}`, {
      key: admin.key,
      headers: { cookie: s.cookie },
    });
    expect(both.status).toBe(200);
    // the elevate route is the browser session's: a key alone cannot use it
    const keyOnly = await fetch(`${t.url}/auth/session/elevate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.key}` },
    });
    expect(keyOnly.status).toBe(401);
  });
});

describe('accounts awaiting activation', () => {
  const PENDING = `query($first: Int, $offset: Int) {
    pendingUsers(first: $first, offset: $offset) { total items { uniqueId pendingSince disabled } }
  }`;

  test('an elevated administrator lists them, activates one and disables another; a member’s view cannot', async () => {
    const em = t.app.orm.em.fork();
    const waiting = [await makeUser(t.app), await makeUser(t.app), await makeUser(t.app)];
    for (const [i, u] of waiting.entries()) {
      await em.nativeUpdate(
        User,
        { uniqueId: u.user.uniqueId },
        { pendingSince: new Date(Date.UTC(2020, 0, 1 + i)) },
      );
    }
    const s = await signIn(admin.key);
    const headers = { ...asSession(s), 'x-csrf-token': s.csrf };
    const member = await gql(t.url, null, PENDING, {}, headers);
    expect(member.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await switchTo(s, 'elevate')).status).toBe(200);
    const listed = await gql(t.url, null, PENDING, { first: 500 }, headers);
    expect(listed.errors).toBeUndefined();
    const ids = listed.data.pendingUsers.items.map((u: { uniqueId: string }) => u.uniqueId);
    // the longest waiting first (other files' users are not in this worker's database)
    expect(ids).toEqual(waiting.map((u) => u.user.uniqueId));
    expect(listed.data.pendingUsers.total).toBe(3);
    expect(listed.data.pendingUsers.items[0]).toMatchObject({
      pendingSince: '2020-01-01T00:00:00.000Z',
      disabled: false,
    });
    const page = await gql(t.url, null, PENDING, { first: 1, offset: 1 }, headers);
    expect(page.data.pendingUsers.items.map((u: { uniqueId: string }) => u.uniqueId)).toEqual([
      waiting[1].user.uniqueId,
    ]);
    for (const bad of [{ first: 0 }, { first: 501 }, { offset: -1 }]) {
      const refused = await gql(t.url, null, PENDING, bad, headers);
      expect(refused.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    }

    const activated = await gql(
      t.url,
      null,
      'mutation($id: ID!) { activateUser(id: $id) { uniqueId pendingSince } }',
      { id: waiting[0].user.uniqueId },
      headers,
    );
    expect(activated.data.activateUser.pendingSince).toBeNull();
    const disabled = await gql(
      t.url,
      null,
      'mutation($id: ID!) { disableUser(id: $id) { uniqueId disabled } }',
      { id: waiting[1].user.uniqueId },
      headers,
    );
    expect(disabled.data.disableUser.disabled).toBe(true);
    const after = await gql(t.url, null, PENDING, {}, headers);
    expect(after.data.pendingUsers.items.map((u: { uniqueId: string }) => u.uniqueId)).toEqual([
      waiting[2].user.uniqueId,
    ]);
    // the activated account signs in; the disabled one's key is refused
    expect((await rest(t.url, 'GET', '/account', { key: waiting[0].key })).status).toBe(200);
    expect((await rest(t.url, 'GET', '/account', { key: waiting[1].key })).status).toBe(401);
    // no one disables themself or another administrator from here
    for (const id of [admin.user.uniqueId, (await makeUser(t.app, { admin: true })).user.uniqueId]) {
      const refused = await gql(
        t.url,
        null,
        'mutation($id: ID!) { disableUser(id: $id) { uniqueId } }',
        { id },
        headers,
      );
      expect(refused.errors?.[0].extensions?.code).toBe('CONFLICT');
    }
    // a member does not see when someone else's account began waiting
    const peek = await gql(
      t.url,
      alice.key,
      'query($id: String!) { user(id: $id) { pendingSince disabled } }',
      { id: waiting[2].user.uniqueId },
    );
    expect(peek.data.user).toEqual({ pendingSince: null, disabled: false });
  });
});
