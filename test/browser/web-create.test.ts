import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { TestApp } from '../support/app';
import { browserAvailability, launchBrowser, openPage } from '../support/browser';
import { unique } from '../support/factories';
import { must, screenshot, seriousViolations, signInWith } from '../support/web';
import { seedEmbeddedDb } from '../support/embedded-template';
import { ServiceProcesses, freePort, type Running } from '../support/process';

/**
 * Creating in the page (issue 27, items 1, 6, 7) in the system Chromium, on a freshly started
 * service (the compiled one, on a data directory of its own: an empty catalog, as a newcomer
 * finds it; the suite's shared database holds other files' public records): the administrator
 * of ADMIN_API_KEY is greeted with what to do first, creates a project (a bad slug is refused by
 * the field, changing nothing), an instrument, a sample and a dataset through the pickers (by
 * name, keyboard included), then browses the list pages of samples, projects and instruments
 * with a search and a facet; at 1280 px and at 390 px. Each record is read back through the API;
 * every page is checked with axe.
 */
const { available, reason } = browserAvailability();
if (!available && process.env.CI) {
  test('a headless browser is available for the web app tests', () => {
    throw new Error(`CI must run the browser tests: ${reason}`);
  });
}
const suite = available ? describe : describe.skip;
jest.setTimeout(240_000);

suite(`create in the page, pickers, record lists${available ? '' : ` (skipped: ${reason})`}`, () => {
  const processes = new ServiceProcesses();
  const adminKey = `web-create-admin-key-${unique('k')}-0123456789`;
  let dataDir: string;
  let service: Running;
  let t: TestApp;
  let browser: { context: BrowserContext; close(): Promise<void> };
  let root: { key: string; id: string; name: string };
  let ann: { key: string; id: string; name: string };
  const tag = unique('c').slice(2);

  async function whoIs(key: string): Promise<{ key: string; id: string; name: string }> {
    const me = await must(t, key, '{ me { user { uniqueId username firstName lastName } } }');
    const u = me.me.user;
    return { key, id: u.uniqueId, name: [u.firstName, u.lastName].filter(Boolean).join(' ') || u.username };
  }

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-webcreate-'));
    seedEmbeddedDb(dataDir);
    const port = await freePort();
    service = await processes.run(
      'main.js',
      [],
      { DATA_DIR: dataDir, ADMIN_API_KEY: adminKey, PORT: String(port), LOG_LEVEL: 'warn' },
      undefined,
    );
    t = { url: `http://127.0.0.1:${port}` } as TestApp;
    // up when it answers
    for (let i = 0; ; i++) {
      const ok = await fetch(`${t.url}/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (service.child.exitCode !== null || i > 1800)
        throw new Error(`the service did not start:\n${service.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    root = await whoIs(adminKey);
    // a second person, made as the README says (the admin command line, beside the running service)
    const made = await processes.run(
      'cli/admin.js',
      ['create-user', '--username', `annika${tag}`, '--first', 'Annika', '--last', `Lind${tag}`],
      { DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    );
    let out = '';
    made.child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    const closed = new Promise((resolve) => made.child.once('close', resolve));
    expect(await made.exited).toBe(0);
    await closed;
    const key = /API key \(shown once\): (\S+)/.exec(out)?.[1];
    if (!key) throw new Error(`create-user printed no key:\n${out}${made.output()}`);
    ann = await whoIs(key);
    browser = await launchBrowser();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    if (service?.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    processes.killAll();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function axe(page: Page, name: string): Promise<void> {
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, name);
  }

  /** Types into a picker, waits for the suggestion named `option`, and picks it with the keyboard. */
  async function pick(page: Page, label: string, typed: string, option: string): Promise<void> {
    const box = page.getByRole('combobox', { name: label, exact: true });
    await box.fill(typed);
    const choice = page.getByRole('option', { name: new RegExp(option) });
    await choice.first().waitFor();
    // the first suggestion is active: Enter picks it (the pickers are keyboard-accessible)
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    expect(await box.getAttribute('aria-activedescendant')).toBeTruthy();
    await box.press('Enter');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    expect(await box.inputValue()).toContain(option);
  }

  test('a new user on an empty catalog creates a project, an instrument, a sample and a dataset (1280 px)', async () => {
    const page = await openPage(browser.context);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInWith(page, t.url, root.key);
    // the empty catalog says what to do first, instead of "0 datasets found"
    const welcome = page.getByRole('region', { name: 'Nothing here yet' });
    await welcome.waitFor();
    expect(await page.title()).toBe('Datasets · Data catalog');
    // in the member's view an administrator creates no project: the greeting says how
    await welcome.getByText('elevate to administrator to create one').waitFor();
    await axe(page, '30-create-welcome');
    await page.getByRole('button', { name: 'Elevate to administrator' }).click();
    await page
      .getByRole('region', { name: 'Nothing here yet' })
      .getByRole('link', { name: 'Create a project' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'New project' }).waitFor();
    expect(await page.title()).toBe('New project · Data catalog');

    // a slug the API refuses: the message is by the field, and nothing is created
    const form = page.getByRole('form', { name: 'New project' });
    await form.getByLabel('Title').fill(`Thin films ${tag}`);
    await form.getByLabel('Slug').fill('x');
    await form.getByRole('button', { name: 'Create project' }).click();
    const slug = form.getByRole('textbox', { name: 'Slug' });
    await page.locator('[aria-invalid="true"]').first().waitFor();
    expect(await slug.getAttribute('aria-invalid')).toBe('true');
    const described = (await slug.getAttribute('aria-describedby')) ?? '';
    const message = await page.locator(`[id="${described.split(' ')[0]}"]`).textContent();
    expect(message).toMatch(/2|64|letters|character/);
    await form.getByRole('alert').waitFor();
    await axe(page, '31-create-project-invalid');
    const none = await must(t, root.key, 'query { projects(first: 10) { totalCount } }');
    expect(none.projects.totalCount).toBe(0);

    await slug.fill(`films-${tag}`);
    await form.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(`**/projects/films-${tag}`);
    await page.getByRole('heading', { level: 1, name: `Thin films ${tag}` }).waitFor();
    expect(await page.title()).toBe(`Thin films ${tag} · Data catalog`);

    // an instrument, from its list page
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Instruments' }).click();
    await page.getByRole('heading', { level: 1, name: 'Instruments' }).waitFor();
    await page.getByRole('link', { name: 'New instrument' }).click();
    const inst = page.getByRole('form', { name: 'New instrument' });
    await inst.getByLabel('Name').fill(`Diffractometer ${tag}`);
    await inst.getByLabel('Type').fill('XRD');
    await inst.getByRole('button', { name: 'Create instrument' }).click();
    await page.getByRole('heading', { level: 1, name: `Diffractometer ${tag}` }).waitFor();
    const instrumentId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);

    // a sample: its project and its owner picked by name
    await page.goto(`${t.url}/new/sample`);
    const sampleForm = page.getByRole('form', { name: 'New sample' });
    await sampleForm.getByLabel('Name').fill(`Wafer ${tag}`);
    await sampleForm.getByLabel('Type').fill('silicon');
    await pick(page, 'Project', 'Thin film', `Thin films ${tag}`);
    await pick(page, 'Owner', 'Annika', ann.name);
    await axe(page, '32-create-sample-pickers');
    await sampleForm.getByRole('button', { name: 'Create sample' }).click();
    await page.getByRole('heading', { level: 1, name: `Wafer ${tag}` }).waitFor();
    const sampleId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);

    // a dataset with its project, instrument and sample picked by name
    await page.goto(`${t.url}/new/dataset`);
    const ds = page.getByRole('form', { name: 'New dataset' });
    await ds.getByLabel('Name').fill(`Scan ${tag}`);
    await ds.getByLabel('Measurement').fill('XRD');
    await pick(page, 'Project', 'films', `Thin films ${tag}`);
    await pick(page, 'Instrument', 'Diffracto', `Diffractometer ${tag}`);
    await pick(page, 'Sample', 'Wafer', `Wafer ${tag}`);
    await axe(page, '33-create-dataset-pickers');
    await ds.getByRole('button', { name: 'Create dataset' }).click();
    await page.getByRole('heading', { level: 1, name: `Scan ${tag}` }).waitFor();
    const datasetId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);

    // read back through the API
    const read = await must(
      t,
      root.key,
      `query($d: ID!, $s: ID!) {
        dataset(id: $d) { datasetName measurement project { projectId } instrument { uniqueId } samples { uniqueId } owner { uniqueId } }
        sample(id: $s) { sampleName sampleType project { projectId } owner { uniqueId } }
      }`,
      { d: datasetId, s: sampleId },
    );
    expect(read.dataset).toMatchObject({
      datasetName: `Scan ${tag}`,
      measurement: 'XRD',
      project: { projectId: `films-${tag}` },
      instrument: { uniqueId: instrumentId },
      samples: [{ uniqueId: sampleId }],
      owner: { uniqueId: root.id },
    });
    expect(read.sample).toMatchObject({
      sampleName: `Wafer ${tag}`,
      sampleType: 'silicon',
      project: { projectId: `films-${tag}` },
      owner: { uniqueId: ann.id },
    });

    // the catalog is no longer empty: no greeting, the count instead
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Datasets' }).click();
    await page.getByText('1 dataset found').waitFor();
    expect(await page.getByRole('region', { name: 'Nothing here yet' }).count()).toBe(0);

    // the list pages: a search, a facet, names (not MFIDs) for people
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Samples' }).click();
    await page.getByRole('heading', { level: 1, name: 'Samples' }).waitFor();
    expect(await page.title()).toBe('Samples · Data catalog');
    await page.getByRole('link', { name: `Wafer ${tag}` }).waitFor();
    const row = page.getByRole('row').filter({ hasText: `Wafer ${tag}` });
    await row.getByText(ann.name).waitFor();
    await page
      .getByRole('complementary', { name: 'Narrow the samples' })
      .getByRole('link', { name: 'silicon' })
      .click();
    await page.waitForURL('**/samples?type=silicon');
    await page.getByText('1 sample').waitFor();
    await page.getByRole('searchbox', { name: 'Sample name' }).fill('wafer');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL('**/samples?q=wafer&type=silicon');
    await page.getByRole('link', { name: `Wafer ${tag}` }).waitFor();
    await axe(page, '34-list-samples');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await page.getByRole('searchbox', { name: 'Project title or slug' }).fill('thin');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: `Thin films ${tag}` }).waitFor();
    await page
      .getByRole('row')
      .filter({ hasText: `films-${tag}` })
      .getByText(root.name)
      .waitFor();
    await axe(page, '35-list-projects');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Instruments' }).click();
    await page.getByRole('heading', { level: 1, name: 'Instruments' }).waitFor();
    const statusFacet = page.getByRole('complementary', { name: 'Narrow the instruments' });
    await statusFacet.getByRole('link', { name: 'maintenance' }).click();
    await page.getByText('0 instruments').waitFor();
    await statusFacet.getByRole('link', { name: 'active' }).click();
    await page.getByRole('link', { name: `Diffractometer ${tag}` }).waitFor();
    await page.getByRole('searchbox', { name: 'Instrument name, type or manufacturer' }).fill('diffrac');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: `Diffractometer ${tag}` }).waitFor();
    await axe(page, '36-list-instruments');

    // the API docs and the GraphQL explorer are linked from every page
    const foot = page.getByRole('contentinfo');
    expect(await foot.getByRole('link', { name: 'API documentation' }).getAttribute('href')).toBe(
      '/api/v3/docs',
    );
    expect(await foot.getByRole('link', { name: 'GraphQL explorer' }).getAttribute('href')).toBe('/graphql');
    await page.close();
  });

  test('at 390 px: the create form and the list pages fit the screen', async () => {
    const page = await openPage(browser.context);
    await page.setViewportSize({ width: 390, height: 844 });
    await signInWith(page, t.url, ann.key);
    // nothing in the main column reaches past the screen's right edge (the header is issue 27 item 11's)
    const overflowing = () =>
      page.evaluate<string[]>(
        `[...document.querySelectorAll('#main *')].filter((e) => {
           const r = e.getBoundingClientRect();
           return r.width > 0 && r.right > window.innerWidth + 1 && !e.closest('.tablewrap');
         }).slice(0, 5).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))`,
      );
    await page.goto(`${t.url}/new/dataset`);
    const ds = page.getByRole('form', { name: 'New dataset' });
    await ds.waitFor();
    // an empty name is refused by its field, before anything is sent
    await ds.getByRole('button', { name: 'Create dataset' }).click();
    const name = ds.getByRole('textbox', { name: 'Name' });
    await page.locator('[aria-invalid="true"]').first().waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    await ds.getByText('Enter a name').waitFor();
    // a project she is no member of: the API's refusal is shown, and nothing is created
    await name.fill(`Not mine ${tag}`);
    await pick(page, 'Project', 'Thin film', `Thin films ${tag}`);
    await ds.getByRole('button', { name: 'Create dataset' }).click();
    await ds
      .getByRole('alert')
      .filter({ hasText: /project|permission|member/i })
      .waitFor();
    expect(await overflowing()).toEqual([]);
    await axe(page, '37-create-dataset-390');
    const hers = await must(t, ann.key, 'query { datasets(first: 10) { totalCount } }');
    expect(hers.datasets.totalCount).toBe(0);
    for (const [path, heading, shot] of [
      ['/samples', 'Samples', '38-list-samples-390'],
      ['/projects', 'Projects', '39-list-projects-390'],
      ['/instruments', 'Instruments', '40-list-instruments-390'],
    ] as const) {
      await page.goto(`${t.url}${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.getByRole('table').waitFor();
      await axe(page, shot);
      expect(await overflowing()).toEqual([]);
    }
    await page.close();
  });
});
