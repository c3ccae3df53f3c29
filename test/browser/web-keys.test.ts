import type { BrowserContext } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app';
import { browserAvailability, launchBrowser, openPage, retryStalledPages } from '../support/browser';
import { rest } from '../support/http';
import { makeUser, unique, type TestUser } from '../support/factories';
import { seriousViolations, signInWith } from '../support/web';

/**
 * The page's "API keys": a signed-in person creates a key (the secret shown once), sees it
 * listed without its secret, and revokes it; each step checked through the API too.
 */
const { available, reason } = browserAvailability();
retryStalledPages();
if (!available && process.env.CI) {
  test('a headless browser is available for the web app tests', () => {
    throw new Error(`CI must run the browser tests: ${reason}`);
  });
}
const suite = available ? describe : describe.skip;
jest.setTimeout(180_000);

suite(`your API keys in the web app${available ? '' : ` (skipped: ${reason})`}`, () => {
  let t: TestApp;
  let browser: { context: BrowserContext; close(): Promise<void> };
  let ada: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    ada = await makeUser(t.app, { username: unique('ada') });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  test('create shows the secret once and it works; the list never shows it; revoke ends it', async () => {
    const page = await openPage(browser.context);
    await signInWith(page, t.url, ada.key);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'Your API keys' }).waitFor();
    await page.getByLabel('Label').fill('laptop script');
    await page.getByLabel('Expires in').selectOption('30');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-secret').textContent()) ?? '';
    expect(secret).toMatch(/^cat_/);
    expect((await rest(t.url, 'GET', '/account', { key: secret })).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke laptop script' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    await page.getByRole('button', { name: 'Revoke laptop script' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.getByRole('button', { name: 'Revoke laptop script' }).click();
    await page.getByRole('cell', { name: 'revoked' }).waitFor();
    expect((await rest(t.url, 'GET', '/account', { key: secret })).status).toBe(401);
    await page.close();
  });
});
