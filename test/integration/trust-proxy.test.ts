import { startTestApp, type TestApp } from '../support/app';
import { rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';

/**
 * `TRUST_PROXY` unset (the default, docs/configuration.md): `X-Forwarded-For` and
 * `X-Forwarded-Proto` are a client's words, not a proxy's. A client cannot pick a fresh address
 * to get past the sign-in limiter, the history records the socket's address, and a forwarded
 * `https` does not mark the cookie `Secure`. (With TRUST_PROXY=loopback the forwarded address
 * is honoured: sign-in-audit.test.ts.)
 */

let t: TestApp;
let alice: TestUser;
beforeAll(async () => {
  t = await startTestApp({ SIGN_IN_MAX_FAILURES: '3', SIGN_IN_WINDOW_SECONDS: '600' });
  alice = await makeUser(t.app);
});
afterAll(() => t.close());

const keySignIn = (key: string, headers: Record<string, string>) =>
  fetch(`${t.url}/auth/key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ api_key: key }),
  });

test('X-Forwarded-Proto: https from a client does not make the session cookie Secure', async () => {
  const res = await keySignIn(alice.key, { 'x-forwarded-proto': 'https' });
  expect(res.status).toBe(200);
  expect(res.headers.get('set-cookie')).toMatch(/SameSite=Lax$/);
});

test('a fresh X-Forwarded-For on every try neither escapes the limiter nor reaches the history', async () => {
  const wrong = alice.key.slice(0, 10) + 'q'.repeat(alice.key.length - 10);
  expect((await keySignIn(wrong, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(401);
  for (let i = 2; i <= 3; i++) {
    const res = await keySignIn(`cat_trust${i}${'y'.repeat(37)}`, { 'x-forwarded-for': `198.51.100.${i}` });
    expect(res.status).toBe(401);
  }
  const paused = await keySignIn(alice.key, { 'x-forwarded-for': '198.51.100.4' });
  expect(paused.status).toBe(429);

  const h = await rest<{ items: { type?: string; event_type?: string; payload: { address: string } }[] }>(
    t.url,
    'GET',
    `/resources/${encodeURIComponent(alice.user.uniqueId)}/history`,
    { key: alice.key },
  );
  const failed = h.body.items.find((e) => (e.event_type ?? e.type) === 'account.sign_in_failed');
  expect(failed?.payload.address).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
});
