import type { BrowserContext } from 'playwright-core';
import { browserAvailability, launchBrowser, openPage, retryStalledPages } from '../support/browser';
import { startTestApp, type TestApp } from '../support/app';
import { makeUser, type TestUser } from '../support/factories';
import { freePort } from '../support/process';
import { startForgingProvider, type ForgingProvider } from '../support/forging-provider';

/**
 * A forged ID token met in the system Chromium (the HTTP-level cases are in
 * test/integration/oidc-forged.test.ts): the person clicks "Sign in with …", the provider's token
 * endpoint answers a token signed with a key it does not publish, and the browser lands on a plain
 * page naming the failed check, without a session; the honest answer then signs in.
 */
const { available, reason } = browserAvailability();
retryStalledPages();
const describeBrowser = available || process.env.CI ? describe : describe.skip;

describeBrowser(`forged ID tokens in the browser${available ? '' : ` (skipped: ${reason})`}`, () => {
  let t: TestApp;
  let idp: ForgingProvider;
  let victim: TestUser;
  let browser: { context: BrowserContext; close(): Promise<void> };

  beforeAll(async () => {
    idp = await startForgingProvider();
    const port = await freePort();
    t = await startTestApp({
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_PROVIDER_NAME: 'Forging IdP',
    });
    victim = await makeUser(t.app);
    idp.person = { sub: `victim-${victim.user.uniqueId}`, email: victim.user.email, email_verified: true };
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await idp?.close();
  });

  test('a token signed with another key: a plain page, no session, nothing in the history; the honest one signs in', async () => {
    const page = await openPage(browser.context);
    idp.forge = { signature: 'other-key' };
    await page.goto(`${t.url}/`);
    await page.getByRole('link', { name: 'Sign in with Forging IdP' }).click();
    await page.getByRole('heading', { name: 'Sign-in failed' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/JWT signature verification failed/);
    expect(await page.content()).not.toMatch(/\n\s+at |node_modules|\.js:\d+/);
    expect(await browser.context.cookies(t.url)).not.toContainEqual(
      expect.objectContaining({ name: 'catalog_session' }),
    );
    const events = await t.app.orm.em
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
    expect(await browser.context.cookies(t.url)).toContainEqual(
      expect.objectContaining({ name: 'catalog_session' }),
    );
    await page.close();
  });
});
