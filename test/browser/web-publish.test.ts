import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app';
import { browserAvailability, CHROMIUM, launchBrowser, openPage } from '../support/browser';
import { makeUser, unique, type TestUser } from '../support/factories';
import { formUpload, makeDataset } from '../support/files';
import { createDataset, must, screenshot, seriousViolations, signInWith } from '../support/web';

/**
 * Publishing in the page (issue 28, items 1 and 4) in the system Chromium: "Publish…" from a
 * selection in the dataset list (1280 px) and from a dataset page (390 px, no sideways scroll);
 * the form shows the service's own validation problems before anything is sent (the network is
 * watched), shows a refusal the service still makes, creates a draft, publishes it after a
 * confirmation, starts a new version, and withdraws it with a required reason, which leaves the
 * tombstone. The landing page is then read with JavaScript disabled, as a crawler reads it.
 * Every new page is checked with axe; screenshots are test-artifacts/web/publish-*.png.
 */
const { available, reason } = browserAvailability();
if (!available && process.env.CI) {
  test('a headless browser is available for the web app tests', () => {
    throw new Error(`CI must run the browser tests: ${reason}`);
  });
}
const suite = available ? describe : describe.skip;
jest.setTimeout(300_000);

/** A field's label as written, a required one's ` *` mark allowed after it. */
const exactly = (label: string) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`);

const DESCRIPTION =
  'Diffraction images of lysozyme crystals collected at 100 K on beamline 7, with the processing logs.';

suite(`publishing in the web app${available ? '' : ` (skipped: ${reason})`}`, () => {
  let t: TestApp;
  let browser: { context: BrowserContext; close(): Promise<void> };
  let ada: TestUser;
  let bob: TestUser;
  const tag = unique('pub');
  const ids: string[] = [];
  let hidden = '';
  let published = '';

  beforeAll(async () => {
    t = await startTestApp();
    ada = await makeUser(t.app, { username: unique('ada') });
    bob = await makeUser(t.app, { username: unique('bob') });
    for (const name of ['alpha', 'beta']) {
      const id = await createDataset(t, ada.key, { datasetName: `${tag} ${name}`, measurement: tag });
      const up = await formUpload(t.url, ada.key, id, [
        { name: `${name}.h5`, data: Buffer.from(`${name} bytes`) },
      ]);
      expect(up.status).toBe(201);
      ids.push(id);
    }
    hidden = await makeDataset(t, bob, `${tag} bob's`);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function axe(page: Page, name: string): Promise<void> {
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, name);
  }

  /** The page is no wider than the window (nothing to scroll sideways). */
  async function noSidewaysScroll(page: Page): Promise<void> {
    const [scroll, inner] = await page.evaluate<[number, number]>(
      '[document.documentElement.scrollWidth, window.innerWidth]',
    );
    expect(scroll).toBeLessThanOrEqual(inner);
  }

  /** The GraphQL mutations the page sends, by name, as they leave. */
  function watchMutations(page: Page): string[] {
    const sent: string[] = [];
    page.on('request', (r: Request) => {
      if (!r.url().endsWith('/graphql') || r.method() !== 'POST') return;
      const m = /mutation\s+(\w+)/.exec(r.postData() ?? '');
      if (m) sent.push(m[1]);
    });
    return sent;
  }

  const state = async (id: string) =>
    (
      await must<{ publication: { state: string } }>(
        t,
        ada.key,
        'query($id: ID!) { publication(id: $id) { state } }',
        { id },
      )
    ).publication.state;

  /** Fills the form with metadata the service accepts. */
  async function fillValid(form: ReturnType<Page['getByRole']>, title: string): Promise<void> {
    await form.getByLabel(exactly('Title')).fill(title);
    await form.getByLabel(exactly('Description')).fill(DESCRIPTION);
    await form.getByLabel(exactly('Creator 1 ORCID iD')).fill('https://orcid.org/0000-0002-1825-0097');
  }

  test('desktop: from a selection, problems shown before sending, a draft, publish, new version, withdraw', async () => {
    const page = await openPage(browser.context);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInWith(page, t.url, ada.key);
    await page.goto(`${t.url}/?measurement=${encodeURIComponent(tag)}`);
    await page.getByText('2 datasets found').waitFor();
    await page.getByRole('checkbox', { name: `Select ${tag} alpha` }).check();
    await page.getByRole('checkbox', { name: `Select ${tag} beta` }).check();
    await page.getByRole('link', { name: 'Publish…' }).click();
    await page.getByRole('heading', { level: 1, name: 'Publish datasets' }).waitFor();
    // the datasets by name, the caller as the first creator
    await page.getByRole('link', { name: `${tag} alpha` }).waitFor();
    await page.getByRole('link', { name: `${tag} beta` }).waitFor();
    const form = page.getByRole('form', { name: 'Publication metadata' });
    expect(await form.getByLabel('Creator 1 name (Family, Given)').inputValue()).toBeTruthy();

    // problems by the fields, and nothing sent
    const sent = watchMutations(page);
    await form.getByLabel(exactly('Title')).fill(`${tag} lysozyme`);
    await form.getByLabel(exactly('Description')).fill('Too short.');
    await form.getByTestId('description-count').getByText('10 of 50–5,000 characters').waitFor();
    await form.getByLabel(exactly('Creator 1 ORCID iD')).fill('0000-0002-1825-0098');
    await form.getByRole('button', { name: 'Add a related identifier' }).click();
    await form.getByLabel('Embargo until').fill('next spring');
    await form.getByRole('button', { name: 'Create the draft' }).click();
    await form.getByText(/problems to fix .*nothing was sent/).waitFor();
    await form.getByText(/must be null or an ISO 8601 date-time with an offset/).waitFor();
    expect(await form.getByLabel('Embargo until').getAttribute('aria-invalid')).toBe('true');
    await form.getByText('must be 50 to 5000 characters').waitFor();
    await form.getByText(/whose check digit is right/).waitFor();
    await form.getByText('must be 1 to 500 characters').waitFor();
    expect(await form.getByLabel(exactly('Description')).getAttribute('aria-invalid')).toBe('true');
    await axe(page, 'publish-form-problems-desktop');
    expect(sent).toEqual([]);

    // fixed: the draft is made, with the related identifier picked from DataCite's lists
    await fillValid(form, `${tag} lysozyme`);
    const related = form.getByRole('group', { name: 'Related identifier 1' });
    await related.getByLabel('Relation').selectOption('Cites');
    await related.getByLabel('Identifier type').selectOption('DOI');
    await related.getByLabel(exactly('Identifier')).fill('10.1234/paper');
    await form.getByRole('button', { name: 'Add an affiliation to creator 1' }).click();
    await form.getByLabel(exactly('Creator 1 affiliation 1')).fill('Brown University');
    await form.getByLabel('Creator 1 affiliation 1 ROR id').fill('05gq02987');
    await form.getByLabel('Keywords').fill('crystallography, lysozyme');
    await form.getByLabel('Version').fill('1.0');
    await form.getByLabel('License').selectOption('CC0-1.0');
    await form.getByLabel('Embargo until').fill('2099-01-01');
    await form.getByRole('button', { name: 'Create the draft' }).click();
    await page.getByRole('heading', { level: 1, name: `${tag} lysozyme` }).waitFor();
    expect(sent).toEqual(['CreatePublication']);
    const id = /\/publish\/([^/?]+)$/.exec(page.url())?.[1] ?? '';
    expect(await state(id)).toBe('draft');
    // the embargo as sent (a date: midnight UTC), shown as the reader reads dates
    const embargo = await must<{ publication: { embargoUntil: string } }>(
      t,
      ada.key,
      'query($id: ID!) { publication(id: $id) { embargoUntil } }',
      { id },
    );
    expect(embargo.publication.embargoUntil).toBe('2099-01-01T00:00:00.000Z');
    expect(
      await page
        .locator('dt', { hasText: 'Files embargoed until' })
        .locator('xpath=..')
        .locator('time')
        .getAttribute('datetime'),
    ).toBe('2099-01-01T00:00:00.000Z');
    await page
      .getByTestId('manifest-summary')
      .getByText(/^2 datasets, 2 files/)
      .waitFor();
    await axe(page, 'publish-draft-desktop');

    // publish, after a confirmation
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page
      .getByRole('group', { name: 'Confirm: Publish' })
      .getByRole('button', { name: 'Confirm: publish' })
      .click();
    await page.getByRole('heading', { name: 'Cite as' }).waitFor();
    expect(await state(id)).toBe('published');
    const citation = await page.locator('.citation').textContent();
    expect(citation).toContain(`${tag} lysozyme (Version 1.0)`);
    expect(await page.getByRole('link', { name: 'Landing page' }).getAttribute('href')).toBe(
      `/publications/${id}`,
    );
    await axe(page, 'publish-published-desktop');

    // a new version: a draft linked to this one
    await page.getByRole('button', { name: 'New version' }).click();
    await page.getByText('Previous version:').waitFor();
    expect(page.url()).not.toContain(id);
    await page.goto(`${t.url}/publish/${id}`);
    await page.getByText('Next version:').waitFor();

    // withdraw: the reason is required (checked by the service's rule, nothing sent), then the tombstone
    await page.getByRole('button', { name: 'Withdraw' }).click();
    const confirm = page.getByRole('group', { name: 'Confirm: Withdraw' });
    await confirm.getByRole('button', { name: 'Confirm: withdraw' }).click();
    await confirm.getByText('must be 1 to 1000 characters').waitFor();
    expect(sent).not.toContain('WithdrawPublication');
    await confirm
      .getByLabel('Reason (required, shown on the tombstone)')
      .fill('A calibration error in the detector.');
    await confirm.getByRole('button', { name: 'Confirm: withdraw' }).click();
    await page.getByRole('heading', { name: /^Withdrawn/ }).waitFor();
    expect(await state(id)).toBe('withdrawn');
    await axe(page, 'publish-withdrawn-desktop');
    const tomb = await fetch(`${t.url}/publications/${id}`);
    expect(tomb.status).toBe(410);
    expect(await tomb.text()).toContain('A calibration error in the detector.');

    // the Publications page in the top menu, searched by title
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Publications' }).click();
    await page.getByRole('heading', { level: 1, name: 'Publications' }).waitFor();
    await page.getByLabel('Title contains').fill(`${tag} lysozyme`);
    await page.getByText('2 publications').waitFor();
    await page.getByLabel('Title contains').fill(`${tag} nothing-like-it`);
    await page.getByText('0 publications').waitFor();
    await page.getByLabel('Title contains').fill(`${tag}`);
    await page.getByText('2 publications').waitFor();
    await axe(page, 'publish-list-desktop');
    await page.close();
  });

  test('phone (390 px): from a dataset page, a refusal by the service shown, draft, publish; no sideways scroll', async () => {
    const page = await openPage(browser.context);
    await page.setViewportSize({ width: 390, height: 844 });
    await signInWith(page, t.url, ada.key);
    // a dataset ada cannot read, in the address: the form cannot know, the service refuses it
    await page.goto(`${t.url}/publish?datasets=${ids[0]},${hidden}`);
    await page.getByRole('heading', { level: 1, name: 'Publish datasets' }).waitFor();
    const form = page.getByRole('form', { name: 'Publication metadata' });
    await fillValid(form, `${tag} refused`);
    await form.getByRole('button', { name: 'Create the draft' }).click();
    await form
      .getByRole('alert')
      .getByText(/The service refused it: .*not found/)
      .waitFor();
    await noSidewaysScroll(page);
    await axe(page, 'publish-refused-phone');

    await page.goto(`${t.url}/datasets/${ids[1]}`);
    await page.getByRole('link', { name: 'Publish…' }).click();
    await page.getByRole('heading', { level: 1, name: 'Publish datasets' }).waitFor();
    await fillValid(form, `${tag} beta only`);
    await form.getByRole('button', { name: 'Add funding' }).click();
    await form.getByLabel(exactly('Funding 1 funder')).fill('Example Foundation');
    await noSidewaysScroll(page);
    await axe(page, 'publish-form-phone');
    await form.getByRole('button', { name: 'Create the draft' }).click();
    await page.getByRole('heading', { level: 1, name: `${tag} beta only` }).waitFor();
    await page
      .getByTestId('manifest-summary')
      .getByText(/^1 dataset, 1 file/)
      .waitFor();
    await noSidewaysScroll(page);
    await axe(page, 'publish-draft-phone');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm: publish' }).click();
    await page.getByRole('heading', { name: 'Cite as' }).waitFor();
    published = /\/publish\/([^/?]+)$/.exec(page.url())?.[1] ?? '';
    expect(await state(published)).toBe('published');
    await noSidewaysScroll(page);
    await axe(page, 'publish-published-phone');
    await page.goto(`${t.url}/publications`);
    await page.getByRole('heading', { level: 1, name: 'Publications' }).waitFor();
    await page.getByRole('link', { name: `${tag} beta only` }).waitFor();
    await noSidewaysScroll(page);
    await axe(page, 'publish-list-phone');
    await page.close();
  });

  test('the landing page without JavaScript, as a crawler reads it: citation, files, JSON-LD; axe at 1280 and 390 px', async () => {
    expect(published).not.toBe('');
    const citation = (
      await must<{ publication: { citation: string } }>(
        t,
        ada.key,
        'query($id: ID!) { publication(id: $id) { citation } }',
        { id: published },
      )
    ).publication.citation;
    const crawler: Browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      const context = await crawler.newContext({ javaScriptEnabled: false });
      for (const [width, height, name] of [
        [1280, 900, 'desktop'],
        [390, 844, 'phone'],
      ] as const) {
        const page = await context.newPage();
        await page.setViewportSize({ width, height });
        const res = await page.goto(`${t.url}/publications/${published}`);
        expect(res?.status()).toBe(200);
        await page.getByRole('heading', { level: 1, name: `${tag} beta only` }).waitFor();
        // the citation as the API gives it, the files table, the JSON-LD: all in the HTML itself
        expect((await page.locator('#citation').textContent())?.trim()).toBe(citation);
        const files = page.getByRole('table').filter({ hasText: 'beta.h5' });
        expect(await files.count()).toBe(1);
        const ld = await page.locator('script[type="application/ld+json"]').textContent();
        const json = JSON.parse(ld ?? '{}');
        expect(json['@type']).toBe('Dataset');
        expect(json.name).toBe(`${tag} beta only`);
        await noSidewaysScroll(page);
        await screenshot(page, `publish-landing-nojs-${name}`);
        await page.close();
        // axe runs inside the page, which needs JavaScript: the same HTML, in the usual browser
        const checked = await openPage(browser.context);
        await checked.setViewportSize({ width, height });
        await checked.goto(`${t.url}/publications/${published}`);
        await checked.getByRole('heading', { level: 1, name: `${tag} beta only` }).waitFor();
        await noSidewaysScroll(checked);
        await axe(checked, `publish-landing-${name}`);
        await checked.close();
      }
      await context.close();
    } finally {
      await crawler.close();
    }
  });
});
