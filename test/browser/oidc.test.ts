import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../support/process';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { browserSuite, openPage } from '../support/browser';
import { User } from '../../src/modules/user/user.entity';
import { UserIdentity } from '../../src/modules/session/identity.entity';

/**
 * Sign-in through a real OpenID Provider (`oidc-provider`, started here in its own process,
 * signing real ID tokens), driven end to end in the system Chromium (docs/authentication.md):
 * a first sign-in makes a pending account, an administrator activates it, the returning sign-in
 * opens a session shared by a second tab, sign-out ends it, and a callback with a stale or
 * mismatched state is refused with a plain message.
 */
/** The provider of the file's service, started with it (the service's environment names it). */
let provider!: { issuer: string; child: ChildProcess };

async function startProvider(redirect: string): Promise<{ issuer: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'support', 'oidc-provider.mjs')], {
    env: {
      ...process.env,
      OIDC_TEST_CLIENT: JSON.stringify({
        client_id: 'catalog',
        client_secret: 'catalog-test-client-secret',
        redirect_uris: [redirect],
      }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const issuer = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the provider exited (${code})`)));
  });
  return { issuer, child };
}

browserSuite(
  'sign-in through an OpenID provider',
  (fx) => {
    const login = `ada-${randomBytes(4).toString('hex')}`;

    afterAll(() => {
      provider?.child.kill();
    });

    const newPage = async (): Promise<Page> => {
      const page = await openPage(fx.context);
      return page;
    };

    /** From the catalog's sign-in form through the provider's login and consent pages. */
    async function signInAtProvider(page: Page): Promise<void> {
      await page.goto(`${fx.t.url}/`);
      await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
      await page.locator('input[name="login"]').fill(login);
      await page.locator('input[name="password"]').fill('any');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
    }

    test('first sign-in: a pending account, no session; activated, the returning sign-in opens one in every tab', async () => {
      const page = await newPage();
      await signInAtProvider(page);
      await page.getByRole('heading', { name: 'Your account awaits activation' }).waitFor();
      const em = fx.t.app.orm.em.fork();
      const identity = await em.findOneOrFail(
        UserIdentity,
        { issuer: provider.issuer, subject: login },
        { populate: ['user'] },
      );
      expect(identity.user).toMatchObject({
        username: login,
        email: `${login}@example.org`,
        platformRole: 'contributor',
      });
      expect(identity.user.pendingSince).toBeInstanceOf(Date);
      expect(await fx.context.cookies(fx.t.url)).not.toContainEqual(
        expect.objectContaining({ name: 'catalog_session' }),
      );

      await em.nativeUpdate(User, { uniqueId: identity.user.uniqueId }, { pendingSince: null });
      await page.goto(`${fx.t.url}/`);
      await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
      // the provider remembers its own sign-in and consent: straight back, signed in
      await page.getByText('Signed in as').waitFor();
      const second = await newPage();
      await second.goto(`${fx.t.url}/`);
      await second.getByText('Signed in as').waitFor();
      await second.getByRole('button', { name: 'Sign out' }).click();
      await second.getByRole('link', { name: 'Sign in with Test IdP' }).waitFor();
      await page.reload();
      await page.getByRole('link', { name: 'Sign in with Test IdP' }).waitFor();
      expect(await em.count(UserIdentity, { user: identity.user.uniqueId })).toBe(1);
      // the account's history (docs/authentication.md "Audit and abuse")
      const events: { type: string; payload: Record<string, unknown> }[] = await em
        .getConnection()
        .execute('select type, payload from domain_event where resource_id = ? order by id', [
          identity.user.uniqueId,
        ]);
      expect(events.map((e) => e.type)).toEqual([
        'account.identity_linked',
        'account.sign_in_failed',
        'account.signed_in',
        'account.signed_out',
      ]);
      expect(events[0].payload).toMatchObject({
        issuer: provider.issuer,
        subject: login,
        matched_by: 'new_account',
      });
      expect(events[1].payload).toMatchObject({ method: 'oidc', reason: 'the account awaits activation' });
      expect(events[2].payload).toMatchObject({ method: 'oidc' });
      await page.close();
      await second.close();
    });

    test('a callback not started in this browser, or with another state, is refused plainly', async () => {
      const page = await newPage();
      await fx.context.clearCookies();
      const stale = await page.goto(`${fx.t.url}/auth/callback?code=abc&state=xyz`);
      expect(stale?.status()).toBe(400);
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(/not started in this browser/);

      await page.goto(`${fx.t.url}/auth/login`);
      await page.locator('input[name="login"]').waitFor();
      const mismatch = await page.goto(`${fx.t.url}/auth/callback?code=abc&state=not-the-state`);
      expect(mismatch?.status()).toBe(400);
      const text = (await page.getByRole('alert').textContent()) ?? '';
      expect(text).toMatch(/refused/i);
      expect(text).not.toMatch(/at .*\.js/);
      await page.close();
    });

    test('return_to only to this service; no provider-less surprises', async () => {
      for (const bad of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
        const res = await fetch(`${fx.t.url}/auth/login?return_to=${encodeURIComponent(bad)}`, {
          redirect: 'manual',
        });
        expect([bad, res.status]).toEqual([bad, 422]);
      }
      const unknown = await fetch(`${fx.t.url}/auth/login?next=/`, { redirect: 'manual' });
      expect(unknown.status).toBe(422);
      const ok = await fetch(`${fx.t.url}/auth/login?return_to=%2Fdatasets`, { redirect: 'manual' });
      expect(ok.status).toBe(302);
      const to = new URL(ok.headers.get('location')!);
      expect(to.origin).toBe(provider.issuer);
      expect(to.searchParams.get('code_challenge_method')).toBe('S256');
      expect(to.searchParams.get('nonce')).toBeTruthy();
      expect(to.searchParams.get('state')).toBeTruthy();
    });
  },
  {
    env: async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      provider = await startProvider(`${base}/auth/callback`);
      return {
        PORT: String(port),
        PUBLIC_BASE_URL: base,
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: 'catalog',
        OIDC_CLIENT_SECRET: 'catalog-test-client-secret',
        OIDC_PROVIDER_NAME: 'Test IdP',
      };
    },
  },
);
