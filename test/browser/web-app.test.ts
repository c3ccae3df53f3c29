import type { Page } from 'playwright-core';
import { browserSuite, openPage } from '../support/browser';
import { addMember, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { png, tempFile } from '../support/fixtures';
import { drainJobs } from '../support/jobs';
import { createDataset, link, must, screenshot, seriousViolations, signInWith } from '../support/web';

/**
 * The web catalog browser in the system Chromium against a whole service: sign in, find, read,
 * act, walk the graph, and what a stranger sees. Screenshots land in test-artifacts/web.
 */
browserSuite('the web app in a browser', (fx) => {
  let owner: TestUser;
  let stranger: TestUser;
  const tag = unique('web');
  const ids: Record<string, string> = {};
  let projectId = '';

  beforeAll(async () => {
    owner = await makeUser(fx.t.app, { username: unique('ada') });
    stranger = await makeUser(fx.t.app, { username: unique('eve') });
    const project = await makeProject(fx.t.app, owner.user);
    projectId = project.projectId;
    await addMember(fx.t.app, project, owner.user, 'admin');
    // newer projects than any picker lists: the project filter offers the signed-in user's own
    for (let i = 0; i < 201; i++) await makeProject(fx.t.app, stranger.user);
    // a chain of five for the graph walk: chain0 → chain1 → … → chain4
    for (let i = 0; i < 5; i++) {
      ids[`chain${i}`] = await createDataset(fx.t, owner.key, {
        datasetName: `${tag} chain${i}`,
        projectId,
        measurement: 'XRD',
        public: i !== 3,
        scientificMetadata: { beam: { energy_keV: 10 + i, mode: i % 2 ? 'scan' : 'fixed' }, operator: 'Ada' },
      });
      if (i > 0) await link(fx.t, owner.key, ids[`chain${i - 1}`], ids[`chain${i}`]);
    }
    const image = (await png(64, 48, '#22aa66')).toString('base64');
    await must(
      fx.t,
      owner.key,
      'mutation($d: ID!, $i: String!) { addDatasetThumbnail(dataset: $d, image: $i, name: "overview") { id } }',
      {
        d: ids.chain0,
        i: image,
      },
    );
    await must(
      fx.t,
      owner.key,
      'mutation($id: ID!) { addDatasetKeyword(id: $id, keyword: "perovskite") { keyword } }',
      {
        id: ids.chain0,
      },
    );
    // 27 more in the project: the list pages them 25 at a time
    for (let i = 0; i < 27; i++)
      await createDataset(fx.t, owner.key, {
        datasetName: `${tag} bulk${i}`,
        projectId,
        measurement: 'SEM',
        dataType: 'image',
      });
  }, 120_000);

  async function newPage(): Promise<Page> {
    const page = await openPage(fx.context);
    return page;
  }

  test('sign in: a bad key gets a clear message; a good key becomes a session; sign-out ends it', async () => {
    const page = await newPage();
    await page.context().clearCookies();
    await page.goto(`${fx.t.url}/`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('API key').fill('not-a-real-key-0000000000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(
      /not accepted: it is wrong, expired or revoked/,
    );
    await screenshot(page, '01-sign-in-bad-key');
    await page.getByLabel('API key').fill(owner.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in as').waitFor();
    await page.reload();
    await page.getByText('Signed in as').waitFor();
    // the key itself is kept nowhere in the page: the session is an HttpOnly cookie
    expect(await page.evaluate('sessionStorage.length + localStorage.length')).toBe(0);
    expect(await page.evaluate('document.cookie')).toBe('');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    await page.close();
  });

  test('find: a filter and a metadata condition, the query in the URL, keyset paging', async () => {
    const page = await newPage();
    await signInWith(page, fx.t.url, owner.key);
    const form = page.getByRole('search');
    await form.getByLabel('Project').selectOption(projectId);
    await form.getByLabel('Measurement').fill('XRD');
    await form.getByRole('button', { name: 'Add a metadata condition' }).click();
    await form.getByLabel('Path').fill('beam.energy_keV');
    await form.getByLabel('Operator').selectOption('gte');
    await form.getByLabel('Value').fill('12');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('3 datasets found').waitFor();
    const names = await page.locator('table.results tbody td.namecell a').allTextContents();
    expect(names.sort()).toEqual([`${tag} chain2`, `${tag} chain3`, `${tag} chain4`]);
    const url = new URL(page.url());
    expect(url.searchParams.get('project')).toBe(projectId);
    expect(url.searchParams.get('measurement')).toBe('XRD');
    expect(url.searchParams.getAll('m')).toEqual(['beam.energy_keV|gte|12']);
    // facet counts for the same filter; a value links to the search narrowed to it
    const facets = page.getByRole('navigation', { name: 'Refine by' });
    await facets.getByRole('link', { name: 'XRD (3)' }).waitFor();
    await facets.getByRole('link', { name: 'private (1)' }).waitFor();
    await facets.getByRole('link', { name: 'public (2)' }).click();
    await page.getByText('2 datasets found').waitFor();
    expect(new URL(page.url()).searchParams.get('visibility')).toBe('public');
    await page.goBack();
    await page.getByText('3 datasets found').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '02-find-filtered');

    // the bookmarked URL runs the same search in a new tab, signed in by the browser's session
    const again = await newPage();
    await again.goto(page.url());
    await again.getByText('3 datasets found').waitFor();
    expect(again.url()).toBe(page.url());
    await again.close();

    // full-text search over names and metadata, with a filter
    await page.goto(`${fx.t.url}/?q=scan&project=${projectId}`);
    await page.getByText('2 datasets found').waitFor();
    expect((await page.locator('table.results tbody td.namecell a').allTextContents()).sort()).toEqual([
      `${tag} chain1`,
      `${tag} chain3`,
    ]);
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('scan');

    await page.goto(`${fx.t.url}/?project=${projectId}&measurement=SEM`);
    await page.getByText('27 datasets found').waitFor();
    expect(await page.locator('table.results tbody tr').count()).toBe(25);
    await page.getByRole('button', { name: 'Show 25 more' }).click();
    await page.locator('table.results tbody tr').nth(26).waitFor();
    expect(await page.locator('table.results tbody tr').count()).toBe(27);
    expect(await page.getByRole('button', { name: 'Show 25 more' }).count()).toBe(0);

    // sortable columns: by name (the order in the URL), paged with the sort's own cursors, reversed
    const rowNames = () => page.locator('table.results tbody td.namecell a').allTextContents();
    const firstRow = (name: string) =>
      page.locator('table.results tbody tr').first().getByRole('link', { name, exact: true }).waitFor();
    const bulk = Array.from({ length: 27 }, (_, i) => `${tag} bulk${i}`).sort();
    await page.getByRole('link', { name: 'Sort by Name, ascending' }).click();
    await page.locator('th[aria-sort="ascending"]', { hasText: 'Name' }).waitFor();
    expect(new URL(page.url()).searchParams.get('sort')).toBe('datasetName');
    await page.getByText('27 datasets found').waitFor();
    await firstRow(bulk[0]);
    await expect(rowNames()).resolves.toEqual(bulk.slice(0, 25));
    await page.getByRole('button', { name: 'Show 25 more' }).click();
    await page.locator('table.results tbody tr').nth(26).waitFor();
    await expect(rowNames()).resolves.toEqual(bulk);
    await page.getByRole('link', { name: 'Sort by Name, descending' }).click();
    await page.locator('th[aria-sort="descending"]', { hasText: 'Name' }).waitFor();
    await firstRow(bulk[26]);
    await expect(rowNames()).resolves.toEqual([...bulk].reverse().slice(0, 25));
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '02b-find-sorted');
    await page.close();
  });

  test('read: fields, keywords, thumbnail full size, searchable metadata tree, related records', async () => {
    const page = await newPage();
    await signInWith(page, fx.t.url, owner.key);
    await page.goto(`${fx.t.url}/?keyword=perovskite&project=${projectId}`);
    const row = page.getByRole('row', { name: new RegExp(`${tag} chain0`) });
    await row.getByRole('img', { name: 'overview' }).waitFor();
    await row.getByRole('link', { name: `${tag} chain0` }).click();
    await page.getByRole('heading', { level: 1, name: `${tag} chain0` }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/datasets/${ids.chain0}`);
    await page.getByRole('link', { name: `Project ${projectId}` }).waitFor();
    await page.getByRole('link', { name: 'perovskite' }).waitFor();
    await page.getByRole('link', { name: `${tag} chain1` }).waitFor();
    const tree = page.locator('.metadata');
    await expect(tree.textContent()).resolves.toContain('energy_keV: 10');
    await page.getByLabel('Search the metadata').fill('mode');
    await expect(tree.textContent()).resolves.not.toContain('operator');
    await expect(tree.textContent()).resolves.toContain('mode: "fixed"');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '03-dataset');
    await page.getByRole('button', { name: 'Show overview full size' }).click();
    const dialog = page.getByRole('dialog', { name: 'overview' });
    await dialog.waitFor();
    expect(await dialog.locator('img').evaluate((img: any) => img.naturalWidth as number)).toBeGreaterThan(0);
    await screenshot(page, '04-thumbnail-full-size');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.close();
  });

  test('act: edit a field, add a keyword, upload a file with progress and see its ingestion finish', async () => {
    const page = await newPage();
    await signInWith(page, fx.t.url, owner.key);
    await page.goto(`${fx.t.url}/datasets/${ids.chain1}`);
    await page.getByRole('button', { name: 'Edit fields' }).click();
    await page.getByRole('form', { name: 'Edit fields' }).getByLabel('Measurement').fill('XRD-2');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('dd', { hasText: 'XRD-2' }).waitFor();
    await page.getByLabel('New keyword').fill('thin film');
    await page.getByRole('button', { name: 'Add keyword' }).click();
    await page.getByRole('link', { name: 'thin film' }).waitFor();
    const after = await must(
      fx.t,
      owner.key,
      'query($id: ID!) { dataset(id: $id) { measurement keywords } }',
      {
        id: ids.chain1,
      },
    );
    expect(after.dataset).toEqual({ measurement: 'XRD-2', keywords: ['thin film'] });

    const file = tempFile('notes.json', JSON.stringify({ sample: { temperature_K: 295 }, run: 7 }));
    await page.getByLabel('Choose files').setInputFiles(file);
    const item = page
      .getByRole('list', { name: 'Uploads' })
      .getByRole('listitem')
      .filter({ hasText: 'notes.json' });
    await item.waitFor();
    // a JSON file that would replace existing top-level metadata keys asks first (web-fix.test.ts)
    const confirm = item.getByRole('button', { name: 'Upload notes.json' });
    if (await confirm.isVisible()) await confirm.click();
    await item.getByRole('status').filter({ hasText: 'uploaded' }).waitFor();
    expect(await item.getByRole('progressbar').evaluate((p: any) => p.value === p.max && p.max > 0)).toBe(
      true,
    );
    await drainJobs(fx.t);
    const fileRow = page.getByRole('row', { name: /notes\.json/ });
    // the files table follows the ingestion until it ends
    await fileRow.locator('td.ingestion', { hasText: /^complete$/ }).waitFor();
    await fileRow.getByRole('link', { name: 'Download notes.json' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '05-dataset-after-upload');
    await page.close();
  });

  test('graph: two hops drawn, expand twice, open a node; the legend and list are keyboard reachable', async () => {
    const page = await newPage();
    await signInWith(page, fx.t.url, owner.key);
    await page.goto(`${fx.t.url}/datasets/${ids.chain0}`);
    await page.getByRole('link', { name: 'Entity graph' }).click();
    const graph = page.locator('.graph[data-ready="true"]');
    await graph.waitFor();
    expect(await graph.getAttribute('data-nodes')).toBe('3');
    expect(await page.locator('canvas').count()).toBeGreaterThan(0);
    await screenshot(page, '06-graph-two-hops');
    await page.getByText(/All nodes/).click();
    await page.getByRole('button', { name: `${tag} chain2 (dataset)` }).click();
    await page.getByRole('button', { name: 'Show its neighbours' }).click();
    await page.locator('.graph[data-nodes="4"]').waitFor();
    await page.getByRole('button', { name: `${tag} chain3 (dataset)` }).click();
    await page.getByRole('button', { name: 'Show its neighbours' }).click();
    await page.locator('.graph[data-nodes="5"]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '07-graph-expanded');
    await page.getByRole('button', { name: `${tag} chain4 (dataset)` }).click();
    await page.getByRole('link', { name: 'Open dataset page' }).click();
    await page.getByRole('heading', { level: 1, name: `${tag} chain4` }).waitFor();

    await page.goto(`${fx.t.url}/projects/${projectId}/graph`);
    await page.locator('.graph[data-ready="true"]').waitFor();
    expect(await page.locator('.graph').getAttribute('data-nodes')).toBe('32');
    await screenshot(page, '08-project-graph');
    await page.close();
  });

  test('a stranger sees nothing private: not in the list, not by URL, not in the graph', async () => {
    const page = await newPage();
    await signInWith(page, fx.t.url, stranger.key);
    await page.goto(`${fx.t.url}/?q=&measurement=XRD&project=${projectId}`);
    await page.getByText(/datasets? found/).waitFor();
    const names = await page.locator('table.results tbody td.namecell a').allTextContents();
    expect(names.sort()).toEqual([`${tag} chain0`, `${tag} chain2`, `${tag} chain4`]);
    await page.goto(`${fx.t.url}/datasets/${ids.chain3}`);
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/not found/i);
    await page.goto(`${fx.t.url}/graph/${ids.chain2}`);
    await page.locator('.graph[data-ready="true"]').waitFor();
    await page.getByText(/All nodes/).click();
    const listed = await page.locator('.nodelist button').allTextContents();
    expect(listed.some((n) => n.includes('chain3'))).toBe(false);
    expect(listed.some((n) => n.includes('chain1'))).toBe(true);
    await screenshot(page, '09-stranger-graph');
    await page.close();
  });
});
