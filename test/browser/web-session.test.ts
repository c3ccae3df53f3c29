import type { BrowserContext, Page } from 'playwright-core';
import { browserAvailability, launchBrowser, openPage, retryStalledPages } from '../support/browser';
import { startTestApp, type TestApp } from '../support/app';
import { makeUser, type TestUser } from '../support/factories';
import { createDataset, screenshot } from '../support/web';

/**
 * The page's session across tabs (docs/authentication.md): an API key entered once becomes a
 * session cookie, so a dataset opened in a new tab and a reload stay signed in; signing out in
 * one tab ends the session in all of them; a revoked session sends every tab to the sign-in form.
 */
const { available, reason } = browserAvailability();
retryStalledPages();
const describeBrowser = available || process.env.CI ? describe : describe.skip;

describeBrowser(`the page's session across tabs${available ? '' : ` (skipped: ${reason})`}`, () => {
  let t: TestApp;
  let ada: TestUser;
  let datasetId: string;
  let browser: { context: BrowserContext; close(): Promise<void> };

  beforeAll(async () => {
    t = await startTestApp();
    ada = await makeUser(t.app);
    datasetId = await createDataset(t, ada.key, { datasetName: 'session tab dataset' });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const newPage = async (): Promise<Page> => {
    const page = await openPage(browser.context);
    return page;
  };

  test('a key entered once: new tabs and reloads stay signed in; sign-out in one tab ends all', async () => {
    await browser.context.clearCookies();
    const first = await newPage();
    await first.goto(`${t.url}/`);
    await first.getByLabel('API key').fill(ada.key);
    await first.getByRole('button', { name: 'Sign in' }).click();
    await first.getByText('Signed in as').waitFor();
    const [cookie] = await browser.context.cookies(t.url);
    expect(cookie).toMatchObject({ name: 'catalog_session', httpOnly: true, sameSite: 'Lax', secure: false });

    // a second tab, straight to a dataset: no sign-in form
    const second = await newPage();
    await second.goto(`${t.url}/datasets/${datasetId}`);
    await second.getByRole('heading', { name: 'session tab dataset' }).waitFor();
    await second.getByText('Signed in as').waitFor();
    await screenshot(second, 'session-02-second-tab');
    await second.reload();
    await screenshot(second, 'session-03-reload');
    await second.getByRole('heading', { name: 'session tab dataset' }).waitFor();

    await first.getByRole('button', { name: 'Sign out' }).click();
    await first.getByLabel('API key').waitFor();
    await second.reload();
    await second.getByLabel('API key').waitFor();
    await first.close();
    await second.close();
  });

  test('a revoked session sends the page back to the sign-in form with the reason', async () => {
    await browser.context.clearCookies();
    const page = await newPage();
    await page.goto(`${t.url}/`);
    await page.getByLabel('API key').fill(ada.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in as').waitFor();
    await t.app.services.userAdmin.endSessions(t.app.orm.em.fork(), ada.user.uniqueId);
    await page.goto(`${t.url}/datasets/${datasetId}`);
    await page.getByLabel('API key').waitFor();
    await page.close();
  });
});
