import type { Page } from 'playwright-core';
import { browserSuite, openPage } from '../support/browser';
import { makeUser, unique, type TestUser } from '../support/factories';
import { createDataset, must, screenshot, seriousViolations, signInWith } from '../support/web';

/**
 * Batch edits in the system Chromium (issue 27, item 5): pick rows or every result of a search,
 * preview, apply and undo; at 1280 px and at 390 px. Each change is checked through the API.
 */

browserSuite('batch edits in the dataset list', (fx) => {
  let ada: TestUser;
  const tag = unique('batch');
  const ids: string[] = [];

  beforeAll(async () => {
    ada = await makeUser(fx.t.app, { username: unique('ada') });
    for (const name of ['alpha', 'beta', 'gamma']) {
      ids.push(await createDataset(fx.t, ada.key, { datasetName: `${tag} ${name}`, measurement: tag }));
    }
  }, 120_000);

  const keywordsOf = async (id: string) =>
    (
      await must<{ dataset: { keywords: string[] } }>(
        fx.t,
        ada.key,
        'query($id: ID!) { dataset(id: $id) { keywords } }',
        {
          id,
        },
      )
    ).dataset.keywords;
  const dataTypeOf = async (id: string) =>
    (
      await must<{ dataset: { dataType: string | null } }>(
        fx.t,
        ada.key,
        'query($id: ID!) { dataset(id: $id) { dataType } }',
        { id },
      )
    ).dataset.dataType;

  async function open(width: number): Promise<Page> {
    const page = await fx.page({ key: ada.key, width });
    await page.goto(`${fx.t.url}/?measurement=${encodeURIComponent(tag)}`);
    await page.getByText('3 datasets found').waitFor();
    return page;
  }

  test('desktop: pick two rows, add a keyword, see the preview, apply, undo', async () => {
    const page = await open(1280);
    await page.getByRole('checkbox', { name: `Select ${tag} alpha` }).check();
    await page.getByRole('checkbox', { name: `Select ${tag} beta` }).check();
    const panel = page.getByRole('region', { name: 'Edit 2 selected datasets' });
    await panel.getByLabel('Keyword', { exact: true }).fill('annealed');
    await panel.getByRole('button', { name: 'Preview' }).click();
    await panel.getByText('2 of 2 datasets change').waitFor();
    expect(await keywordsOf(ids[0])).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'batch-preview-desktop');
    await panel.getByRole('button', { name: 'Apply to 2 datasets' }).click();
    await panel.getByText('— applied').waitFor();
    expect(await keywordsOf(ids[0])).toEqual(['annealed']);
    expect(await keywordsOf(ids[1])).toEqual(['annealed']);
    expect(await keywordsOf(ids[2])).toEqual([]);
    await screenshot(page, 'batch-applied-desktop');
    await panel.getByRole('button', { name: 'Undo this batch' }).click();
    await panel.getByText('— undone').waitFor();
    expect(await keywordsOf(ids[0])).toEqual([]);
    expect(await keywordsOf(ids[1])).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  test('phone: all results of the search, set a field, undo later from the batch list; clear filters', async () => {
    const page = await open(390);
    await page.getByRole('button', { name: 'Select all 3 results of this search' }).click();
    const panel = page.getByRole('region', { name: 'Edit 3 selected datasets' });
    await panel.getByLabel('Change', { exact: true }).selectOption('set_field');
    await panel.getByLabel('Field', { exact: true }).selectOption('data_type');
    await panel.getByLabel('New value', { exact: true }).fill('processed');
    await panel.getByRole('button', { name: 'Preview' }).click();
    await panel.getByText('3 of 3 datasets change').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'batch-preview-phone');
    await panel.getByRole('button', { name: 'Apply to 3 datasets' }).click();
    await panel.getByText('— applied').waitFor();
    for (const id of ids) expect(await dataTypeOf(id)).toBe('processed');
    // later: the batch list offers its undo
    await page.reload();
    await page.getByText('3 datasets found').waitFor();
    await page.getByText('Your recent batch edits').click();
    const item = page.getByRole('listitem').filter({ hasText: 'set data_type to “processed”' });
    await item.getByRole('button', { name: 'Undo' }).click();
    // this batch's own line: the desktop test's undone batch is in the list too
    await item.filter({ hasText: '(undone)' }).waitFor();
    for (const id of ids) expect(await dataTypeOf(id)).toBeNull();
    await screenshot(page, 'batch-history-phone');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL(`${fx.t.url}/`);
    await page.close();
  });

  test('Back returns to the same page of results and the same scroll position', async () => {
    const many = unique('many');
    for (let i = 0; i < 30; i++) {
      await createDataset(fx.t, ada.key, {
        datasetName: `${many} ${String(i).padStart(2, '0')}`,
        measurement: many,
      });
    }
    const page = await openPage(fx.context);
    await page.setViewportSize({ width: 1280, height: 700 });
    await signInWith(page, fx.t.url, ada.key);
    await page.goto(`${fx.t.url}/?measurement=${encodeURIComponent(many)}`);
    await page.getByText('30 datasets found').waitFor();
    await page.getByRole('button', { name: 'Show 25 more' }).click();
    await page.getByRole('link', { name: `${many} 00` }).waitFor();
    expect(page.url()).toContain('pages=2');
    const last = page.getByRole('link', { name: `${many} 00` });
    await last.scrollIntoViewIfNeeded();
    const y = await page.evaluate('window.scrollY');
    expect(y).toBeGreaterThan(0);
    await last.click();
    await page.getByRole('heading', { level: 1, name: `${many} 00` }).waitFor();
    await page.goBack();
    await page.getByRole('link', { name: `${many} 00` }).waitFor();
    // a function, not a string: the page's CSP forbids eval, which a string predicate needs
    await page.waitForFunction(
      (at) => Math.abs((globalThis as unknown as { scrollY: number }).scrollY - at) <= 2,
      y as number,
    );
    await page.close();
  });
});
