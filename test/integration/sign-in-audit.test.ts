import { startTestApp, type TestApp } from '../support/app';
import { rest } from '../support/http';
import { makeUser, randomOrcid, type TestUser } from '../support/factories';
import { SignInLimiter } from '../../src/modules/session/sign-in-limiter';
import { OidcService } from '../../src/modules/session/oidc.service';
import type { IDToken } from 'openid-client';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Sign-ins in the history of the account (docs/authentication.md "Audit"): a key sign-in, a
 * sign-out, a failed key sign-in (without the secret), an identity linked at an OpenID sign-in;
 * who reads an account's history; the limiter of failed sign-ins (429 with Retry-After, a
 * correct key from a paused address still paused) and its memory bound.
 */

let t: TestApp;
let alice: TestUser;
let admin: TestUser;
let bob: TestUser;
beforeAll(async () => {
  // the test client is the proxy in front (loopback): its X-Forwarded-For names the client
  t = await startTestApp({
    SIGN_IN_MAX_FAILURES: '3',
    SIGN_IN_WINDOW_SECONDS: '600',
    TRUST_PROXY: 'loopback',
  });
  alice = await makeUser(t.app);
  admin = await makeUser(t.app, { admin: true });
  bob = await makeUser(t.app);
});
afterAll(() => t.close());

let n = 0;
/** a client address of its own for each caller of the limiter (TRUST_PROXY=loopback: X-Forwarded-For is believed) */
const address = () => `192.0.2.${++n}`;

const keySignIn = (key: string, from: string) =>
  fetch(`${t.url}/auth/key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify({ api_key: key }),
  });

interface Entry {
  event_type?: string;
  type?: string;
  payload?: Record<string, unknown>;
  [k: string]: unknown;
}
const history = async (id: string, key: string) =>
  rest<{ items: Entry[] }>(t.url, 'GET', `/resources/${encodeURIComponent(id)}/history`, { key });
const typeOf = (e: Entry) => (e.event_type ?? e.type) as string;

describe('sign-ins in the account history', () => {
  test('a key sign-in and its sign-out are recorded for the account, with the session and address', async () => {
    const from = address();
    const res = await keySignIn(alice.key, from);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { session_id: string; csrf_token: string };
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
    const out = await fetch(`${t.url}/auth/logout`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': body.csrf_token, origin: t.url, 'x-forwarded-for': from },
    });
    expect(out.status).toBe(204);
    const h = await history(alice.user.uniqueId, alice.key);
    expect(h.status).toBe(200);
    const [outEvent, inEvent] = h.body.items;
    expect(typeOf(outEvent)).toBe('account.signed_out');
    expect(outEvent.payload).toEqual({ session_id: body.session_id, address: from });
    expect(typeOf(inEvent)).toBe('account.signed_in');
    expect(inEvent.payload).toEqual({ method: 'api_key', session_id: body.session_id, address: from });
  });

  test('a failed key sign-in is recorded for the account of the key, without the secret', async () => {
    const from = address();
    const wrong = alice.key.slice(0, 10) + 'x'.repeat(alice.key.length - 10);
    expect((await keySignIn(wrong, from)).status).toBe(401);
    const h = await history(alice.user.uniqueId, alice.key);
    const failed = h.body.items.find((e) => typeOf(e) === 'account.sign_in_failed');
    expect(failed?.payload).toMatchObject({
      method: 'api_key',
      address: from,
      key_prefix: alice.key.slice(0, 10),
    });
    expect(JSON.stringify(h.body)).not.toContain(wrong);
    expect(JSON.stringify(h.body)).not.toContain(alice.key);
  });

  test("an account's history: its owner and platform admins; anyone else as if it did not exist", async () => {
    expect((await history(alice.user.uniqueId, alice.key)).status).toBe(200);
    expect((await history(alice.user.uniqueId, admin.key)).status).toBe(200);
    const other = await history(alice.user.uniqueId, bob.key);
    expect(other.status).toBe(404);
    expect((await history(alice.user.uniqueId, null as unknown as string)).status).toBe(401);
  });

  test('linking an identity at an OpenID sign-in is recorded (service level, no provider)', async () => {
    const orcid = randomOrcid();
    const carol = await makeUser(t.app, { orcid });
    const oidc = new OidcService(
      {
        issuer: 'https://idp.example.org',
        clientId: 'c',
        scopes: 'openid',
        providerName: 'IdP',
        newUsers: 'pending',
      },
      t.url,
      t.app.services.user,
      t.app.services.events,
    );
    const claims = {
      iss: 'https://idp.example.org',
      sub: 'carol-sub',
      orcid,
      aud: 'c',
      iat: 0,
      exp: 0,
    } as IDToken;
    const outcome = await oidc.signIn(t.app.orm.em.fork(), claims);
    expect(outcome.kind).toBe('signed_in');
    // signing in again through the same link links nothing new
    await oidc.signIn(t.app.orm.em.fork(), claims);
    const h = await history(carol.user.uniqueId, carol.key);
    const linked = h.body.items.filter((e) => typeOf(e) === 'account.identity_linked');
    expect(linked).toHaveLength(1);
    expect(linked[0].payload).toMatchObject({
      issuer: 'https://idp.example.org',
      subject: 'carol-sub',
      matched_by: 'orcid',
    });
  });
});

test('webhooks tell account events to the account owner only (and platform admins)', async () => {
  const got: string[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      got.push(raw);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const subscribe = async (key: string) => {
      const res = await rest(t.url, 'POST', '/webhooks', {
        key,
        body: { url, event_types: ['account.signed_in'] },
      });
      expect(res.status).toBe(201);
      return res.body.unique_id as string;
    };
    const mine = await subscribe(alice.key);
    const theirs = await subscribe(bob.key);
    expect((await keySignIn(alice.key, address())).status).toBe(200);
    await t.app.webhooks.drain();
    const status = async (sub: string) => {
      const rows = await t.app.orm.em
        .fork()
        .getConnection()
        .execute<{ status: string }[]>('select status from webhook_delivery where subscription_id = ?', [
          sub,
        ]);
      return rows.map((r) => r.status);
    };
    expect(await status(mine)).toEqual(['delivered']);
    expect(await status(theirs)).toEqual(['skipped']);
    expect(got).toHaveLength(1);
    expect(got[0]).toContain(alice.user.uniqueId);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('the limiter of failed sign-ins', () => {
  test('after N failures from an address: 429 with Retry-After, even for a correct key', async () => {
    const from = address();
    for (let i = 0; i < 3; i++)
      expect((await keySignIn(`cat_wrong${i}${'y'.repeat(38)}`, from)).status).toBe(401);
    const paused = await keySignIn(bob.key, from);
    expect(paused.status).toBe(429);
    const retry = Number(paused.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(600);
    expect(await paused.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    // another address is not paused
    expect((await keySignIn(bob.key, address())).status).toBe(200);
  });

  test('failures against one key from many addresses pause that key', async () => {
    const wrong = bob.key.slice(0, 10) + 'z'.repeat(bob.key.length - 10);
    for (let i = 0; i < 3; i++) expect((await keySignIn(wrong, address())).status).toBe(401);
    expect((await keySignIn(wrong, address())).status).toBe(429);
  });

  test('the window ends; memory is bounded', () => {
    let now = 0;
    const limiter = new SignInLimiter({ maxFailures: 2, windowSeconds: 60, maxEntries: 100 }, () => now);
    limiter.fail(['a']);
    limiter.fail(['a']);
    expect(limiter.retryAfter(['a'])).toBe(60);
    now = 59_500;
    expect(limiter.retryAfter(['a'])).toBe(1);
    now = 60_000;
    expect(limiter.retryAfter(['a'])).toBe(0);
    for (let i = 0; i < 10_000; i++) limiter.fail([`k${i}`]);
    expect(limiter.size).toBe(100);
  });
});
