import { startTestApp, type TestApp } from '../support/app';
import { freePort } from '../support/process';
import { makeUser, type TestUser } from '../support/factories';
import { startForgingProvider, type Forgery, type ForgingProvider } from '../support/forging-provider';

/**
 * Forged and broken ID tokens are refused (issue 26, item 8; docs/authentication.md): the real
 * authorization code flow (the catalog's /auth/login, the provider's authorization endpoint, the
 * callback with the browser's state cookie) against a provider whose token endpoint answers an ID
 * token broken in one way each time. The honest answer signs the victim in, so each refusal is
 * that one broken property's. A refusal is a plain 400 page without a stack, sets no session
 * cookie, creates no account, identity or session, and writes nothing in anyone's history (a
 * forged callback names no account). Driven by HTTP with a cookie jar of one cookie;
 * oidc-forged in test/browser drives one in Chromium.
 */

let t: TestApp;
let idp: ForgingProvider;
let victim: TestUser;

beforeAll(async () => {
  idp = await startForgingProvider();
  const port = await freePort();
  t = await startTestApp({
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_CLIENT_SECRET: idp.clientSecret,
    // an unknown person would get an active account: a forged token must not get one either
    OIDC_NEW_USERS: 'create',
    SIGN_IN_MAX_FAILURES: '1000',
  });
  victim = await makeUser(t.app);
  // the tokens are about the victim: their verified email matches the victim's account
  idp.person = {
    sub: `victim-${victim.user.uniqueId}`,
    email: victim.user.email,
    email_verified: true,
  };
}, 120_000);
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

interface Callback {
  /** the callback URL the provider sent the browser to, and the state cookie it carried */
  url: string;
  cookie: string;
}

/** GET /auth/login, then the provider's authorization endpoint: where the browser lands next. */
async function authorize(): Promise<Callback> {
  const login = await fetch(`${t.url}/auth/login`, { redirect: 'manual' });
  expect(login.status).toBe(302);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  expect(cookie).toMatch(/^catalog_oidc=/);
  const at = await fetch(login.headers.get('location')!, { redirect: 'manual' });
  expect(at.status).toBe(302);
  return { url: at.headers.get('location')!, cookie };
}

async function callback(cb: Callback) {
  const res = await fetch(cb.url, { redirect: 'manual', headers: { cookie: cb.cookie } });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

/** Rows whose change would mean a forged answer did something. */
async function footprint() {
  const rows = await t.app.orm.em
    .fork()
    .getConnection()
    .execute<{ what: string; n: string }[]>(
      `select 'users' as what, count(*)::text as n from app_user
     union all select 'identities', count(*)::text from user_identity
     union all select 'sessions', count(*)::text from user_session
     union all select 'account events', count(*)::text from domain_event where type like 'account.%'`,
    );
  return Object.fromEntries(rows.map((r) => [r.what, Number(r.n)]));
}

function expectPlainRefusal(res: Awaited<ReturnType<typeof callback>>): void {
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(res.body).toMatch(/<p role="alert">[^<]+<\/p>/);
  expect(res.body).not.toMatch(/\n\s+at |\.(js|ts|mjs):\d+|node_modules|Error:/);
  const cookies = res.headers.getSetCookie();
  expect(cookies.some((c) => c.startsWith('catalog_session='))).toBe(false);
}

const now = () => Math.floor(Date.now() / 1000);

/** The page's message, as text. */
const alertOf = (body: string) =>
  (/<p role="alert">([^<]*)<\/p>/.exec(body)?.[1] ?? '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

test('the honest answer signs the victim in (what each forgery below differs from)', async () => {
  idp.forge = {};
  const res = await callback(await authorize());
  expect(res.status).toBe(302);
  expect(res.headers.getSetCookie().some((c) => /^catalog_session=[A-Za-z0-9_-]{43};/.test(c))).toBe(true);
  const [linked] = await t.app.orm.em
    .fork()
    .getConnection()
    .execute<{ user_id: string }[]>('select user_id from user_identity where issuer = ? and subject = ?', [
      idp.issuer,
      idp.person.sub,
    ]);
  expect(linked.user_id).toBe(victim.user.uniqueId);
});

/** each case: the forgery, and the check that refuses it (the cause the page names) */
const forgeries: [string, Forgery, RegExp][] = [
  [
    'signed with a key the provider does not publish',
    { signature: 'other-key' },
    /JWT signature verification failed/,
  ],
  ['unsigned (alg none)', { signature: 'none' }, /unexpected JWT "alg" header parameter/],
  [
    'for another client (audience)',
    { claims: (c) => ({ ...c, aud: 'another-client' }) },
    /"aud" \(audience\) claim value/,
  ],
  [
    'for this client and another, without azp',
    { claims: (c) => ({ ...c, aud: [idp.clientId, 'another-client'] }) },
    /additional untrusted audiences/,
  ],
  [
    'from another issuer',
    { claims: (c) => ({ ...c, iss: 'http://127.0.0.1:1' }) },
    /"iss" \(issuer\) claim value/,
  ],
  [
    'expired (an hour ago, beyond the 60 s skew)',
    { claims: (c) => ({ ...c, iat: now() - 7200, exp: now() - 3600 }) },
    /"exp" \(expiration time\) claim value, expiration is past/,
  ],
  [
    'with another sign-in’s nonce',
    { claims: (c) => ({ ...c, nonce: 'a-nonce-of-another-sign-in' }) },
    /unexpected ID Token "nonce" claim value/,
  ],
  ['without the nonce', { claims: (c) => ({ ...c, nonce: undefined }) }, /"nonce" \(nonce\) claim missing/],
  [
    'sent back with another state',
    { state: 'a-state-of-another-sign-in' },
    /unexpected "state" response parameter value/,
  ],
];

test.each(forgeries)(
  'an ID token %s is refused plainly and changes nothing',
  async (_what, forgery, reason) => {
    idp.forge = forgery;
    try {
      const before = await footprint();
      const res = await callback(await authorize());
      expectPlainRefusal(res);
      expect(alertOf(res.body)).toMatch(reason);
      expect(await footprint()).toEqual(before);
    } finally {
      idp.forge = {};
    }
  },
);

test('a replayed callback (the same code and state cookie) is refused; without the cookie too', async () => {
  const cb = await authorize();
  expect((await callback(cb)).status).toBe(302);
  const before = await footprint();
  const again = await callback(cb);
  expectPlainRefusal(again);
  const stolen = await callback({ url: cb.url, cookie: '' });
  expectPlainRefusal(stolen);
  expect(alertOf(again.body)).toMatch(/invalid_grant/);
  expect(alertOf(stolen.body)).toMatch(/not started in this browser/);
  expect(await footprint()).toEqual(before);
});
