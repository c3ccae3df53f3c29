import { browserSuite, openPage } from '../support/browser';
import { makeUser, type TestUser } from '../support/factories';
import { freePort } from '../support/process';
import { startForgingProvider, type ForgingProvider } from '../support/forging-provider';

/**
 * A forged ID token met in the system Chromium (the HTTP-level cases are in
 * test/integration/oidc-forged.test.ts): the person clicks "Sign in with …", the provider's token
 * endpoint answers a token signed with a key it does not publish, and the browser lands on a plain
 * page naming the failed check, without a session; the honest answer then signs in.
 */
/** The provider of the file's service, started with it (the service's environment names it). */
let idp!: ForgingProvider;

browserSuite(
  'forged ID tokens in the browser',
  (fx) => {
    let victim: TestUser;

    beforeAll(async () => {
      victim = await makeUser(fx.t.app);
      idp.person = { sub: `victim-${victim.user.uniqueId}`, email: victim.user.email, email_verified: true };
    });
    afterAll(async () => {
      await idp?.close();
    });

    test('a token signed with another key: a plain page, no session, nothing in the history; the honest one signs in', async () => {
      const page = await openPage(fx.context);
      idp.forge = { signature: 'other-key' };
      await page.goto(`${fx.t.url}/`);
      await page.getByRole('link', { name: 'Sign in with Forging IdP' }).click();
      await page.getByRole('heading', { name: 'Sign-in failed' }).waitFor();
      expect(await page.getByRole('alert').textContent()).toMatch(/JWT signature verification failed/);
      expect(await page.content()).not.toMatch(/\n\s+at |node_modules|\.js:\d+/);
      expect(await fx.context.cookies(fx.t.url)).not.toContainEqual(
        expect.objectContaining({ name: 'catalog_session' }),
      );
      const events = await fx.t.app.orm.em
        .fork()
        .getConnection()
        .execute<{ type: string }[]>('select type from domain_event where resource_id = ?', [
          victim.user.uniqueId,
        ]);
      expect(events).toEqual([]);

      idp.forge = {};
      await page.getByRole('link', { name: 'Back to the catalog' }).click();
      await page.getByRole('link', { name: 'Sign in with Forging IdP' }).click();
      await page.getByText('Signed in as').waitFor();
      expect(await fx.context.cookies(fx.t.url)).toContainEqual(
        expect.objectContaining({ name: 'catalog_session' }),
      );
      await page.close();
    });
  },
  {
    env: async () => {
      idp = await startForgingProvider();
      const port = await freePort();
      return {
        PORT: String(port),
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_CLIENT_SECRET: idp.clientSecret,
        OIDC_PROVIDER_NAME: 'Forging IdP',
      };
    },
  },
);
