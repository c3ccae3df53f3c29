import type { BrowserContext } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app';
import { browserAvailability, launchBrowser, openPage } from '../support/browser';
import { makeUser, unique, type TestUser } from '../support/factories';
import { rest } from '../support/http';
import { screenshot, seriousViolations, signInWith } from '../support/web';

/**
 * A keyword facet, clicked, lists as many datasets as it counts (docs/web-app.md, "Keyword
 * facets"), at 1280 and 390 px, while the typed keyword stays a substring. Screenshots in
 * test-artifacts/web.
 */
const { available, reason } = browserAvailability();
if (!available && process.env.CI) {
  test('a headless browser is available for the web app tests', () => {
    throw new Error(`CI must run the browser tests: ${reason}`);
  });
}
const suite = available ? describe : describe.skip;
jest.setTimeout(180_000);

suite(`keyword facets in the page${available ? '' : ` (skipped: ${reason})`}`, () => {
  let t: TestApp;
  let browser: { context: BrowserContext; close(): Promise<void> };
  let owner: TestUser;
  const k = unique('Silicon');

  beforeAll(async () => {
    t = await startTestApp();
    owner = await makeUser(t.app);
    // k on two datasets, k-wafer on two (one of them with k too): the typed "k" finds three
    for (const [name, keywords] of [
      ['one', [k]],
      ['two', [k, `${k}-wafer`]],
      ['three', [`${k}-wafer`]],
    ] as const) {
      const made = await rest(t.url, 'POST', '/datasets', { key: owner.key, body: { dataset_name: name } });
      expect(made.status).toBe(201);
      for (const keyword of keywords) {
        const added = await rest(t.url, 'POST', `/datasets/${made.body.unique_id as string}/keywords`, {
          key: owner.key,
          body: { keyword },
        });
        expect(added.status).toBe(201);
      }
    }
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  test('the typed keyword finds three; its facet "k (2)" opens two; "Any keyword" drops it (1280 and 390 px)', async () => {
    const page = await openPage(browser.context);
    await signInWith(page, t.url, owner.key);
    for (const [width, height, name] of [
      [1280, 900, 'keyword-facets-01-desktop'],
      [390, 844, 'keyword-facets-02-phone'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`${t.url}/?keyword=${encodeURIComponent(k.toLowerCase())}`);
      await page.getByText('3 datasets found').waitFor();
      const facet = page
        .getByRole('navigation', { name: 'Refine by' })
        .getByRole('link', { name: `${k} (2)` });
      await facet.click();
      await page.getByText('2 datasets found').waitFor();
      expect(new URL(page.url()).searchParams.get('keywordExact')).toBe(k);
      const rows = page.locator('table.results tbody tr');
      await expect(rows.count()).resolves.toBe(2);
      await expect(page.locator('.exact-keyword').textContent()).resolves.toContain(k);
      await screenshot(page, name);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Any keyword' }).click();
      await page.getByText('3 datasets found').waitFor();
      expect(new URL(page.url()).searchParams.get('keywordExact')).toBeNull();
    }
    await page.close();
  });
});
