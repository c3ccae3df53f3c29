import type { Page } from 'playwright-core';
import { browserSuite } from '../support/browser';
import { addMember, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { must, screenshot, seriousViolations } from '../support/web';
import type { Project } from '../../src/modules/project/project.entity';

/**
 * The sample, project and instrument pages in the system Chromium: edit fields and request a
 * sample's deletion, manage a project's members and fields, edit an instrument. What the caller
 * may not do is not offered. Each change is checked through the API afterwards.
 */

browserSuite('sample, project and instrument pages', (fx) => {
  let ada: TestUser;
  let bob: TestUser;
  let cy: TestUser;
  let root: TestUser;
  let project: Project;
  const tag = unique('rec');

  beforeAll(async () => {
    ada = await makeUser(fx.t.app, { username: unique('ada') });
    bob = await makeUser(fx.t.app, { username: unique('bob') });
    cy = await makeUser(fx.t.app, { username: unique('cy') });
    root = await makeUser(fx.t.app, { username: unique('root'), admin: true });
    project = await makeProject(fx.t.app, ada.user);
    await addMember(fx.t.app, project, bob.user, 'viewer');
  }, 120_000);

  async function open(key: string, url: string): Promise<Page> {
    const page = await fx.page({ key: key });
    await page.goto(`${fx.t.url}${url}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    return page;
  }

  test('the sample page: edit fields, request deletion; a viewer is offered neither', async () => {
    const made = await must<{ createSample: { uniqueId: string } }>(
      fx.t,
      ada.key,
      'mutation($input: CreateSampleInput!) { createSample(input: $input) { uniqueId } }',
      { input: { sampleName: `${tag} wafer`, sampleType: 'silicon', projectId: project.projectId } },
    );
    const id = made.createSample.uniqueId;
    const viewer = await open(bob.key, `/samples/${id}`);
    await viewer.getByText('silicon').waitFor();
    expect(await viewer.getByRole('button', { name: 'Edit fields' }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'Request deletion' }).count()).toBe(0);
    await viewer.close();

    const page = await open(ada.key, `/samples/${id}`);
    await page.getByRole('button', { name: 'Edit fields' }).click();
    const form = page.getByRole('form', { name: 'Edit fields' });
    await form.getByLabel('Type').fill('sapphire');
    await form.getByLabel('Description').fill('polished both sides');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('polished both sides').waitFor();
    const read = () =>
      must<any>(
        fx.t,
        ada.key,
        'query($id: ID!) { sample(id: $id) { sampleName sampleType description deletionRequest { status } } }',
        { id },
      );
    expect((await read()).sample).toEqual({
      sampleName: `${tag} wafer`,
      sampleType: 'sapphire',
      description: 'polished both sides',
      deletionRequest: null,
    });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '20-sample-edited');

    await page.getByLabel('Reason').fill('broken');
    await page.getByRole('button', { name: 'Request deletion' }).click();
    await page.getByText(/Deletion pending/).waitFor();
    expect((await read()).sample.deletionRequest).toEqual({ status: 'pending' });
    await page.close();
  });

  test('the project page: the lead adds a member, changes the role, removes them and edits fields', async () => {
    const viewer = await open(bob.key, `/projects/${project.projectId}`);
    const list = viewer.getByRole('region', { name: /Members/ });
    await list.getByText('viewer').waitFor();
    expect(await viewer.getByRole('form', { name: 'Add a member' }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'Edit fields' }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    await viewer.close();

    const members = () =>
      must<any>(
        fx.t,
        ada.key,
        'query($id: String!) { project(id: $id) { members { role user { uniqueId } } } }',
        {
          id: project.projectId,
        },
      ).then((d) =>
        (d.project.members as { role: string; user: { uniqueId: string } }[])
          .map((m) => `${m.user.uniqueId}:${m.role}`)
          .sort(),
      );
    const page = await open(ada.key, `/projects/${project.projectId}`);
    const section = page.getByRole('region', { name: /Members/ });
    const add = page.getByRole('form', { name: 'Add a member' });
    await add.getByLabel('User', { exact: true }).fill(unique('nobody'));
    await add.getByRole('button', { name: 'Add member' }).click();
    await add.getByRole('alert').waitFor();
    expect(await members()).toEqual([`${bob.user.uniqueId}:viewer`]);

    await add.getByLabel('User', { exact: true }).fill(cy.user.username ?? '');
    await add.getByLabel('Role').selectOption('editor');
    await add.getByRole('button', { name: 'Add member' }).click();
    const cyName = `Test ${cy.user.username ?? ''}`; // first and last name, as the page names users
    await section.getByRole('button', { name: `Remove ${cyName}` }).waitFor();
    expect(await members()).toEqual([`${bob.user.uniqueId}:viewer`, `${cy.user.uniqueId}:editor`].sort());
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '21-project-members');

    await section.getByLabel(`Role of ${cyName}`, { exact: true }).selectOption('admin');
    await section.getByRole('button', { name: `Change role of ${cyName}` }).click();
    const promoted = [`${bob.user.uniqueId}:viewer`, `${cy.user.uniqueId}:admin`].sort();
    for (let i = 0; i < 50 && JSON.stringify(await members()) !== JSON.stringify(promoted); i++)
      await page.waitForTimeout(200);
    expect(await members()).toEqual(promoted);

    await section.getByRole('button', { name: `Remove ${cyName}` }).click();
    await section.getByRole('button', { name: `Remove ${cyName}` }).waitFor({ state: 'detached' });
    expect(await members()).toEqual([`${bob.user.uniqueId}:viewer`]);

    await page.getByRole('button', { name: 'Edit fields' }).click();
    const form = page.getByRole('form', { name: 'Edit fields' });
    await form.getByLabel('Organization').fill(`${tag} lab`);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`${tag} lab`).waitFor();
    const after = await must<any>(
      fx.t,
      bob.key,
      'query($id: String!) { project(id: $id) { organization } }',
      {
        id: project.projectId,
      },
    );
    expect(after.project.organization).toBe(`${tag} lab`);
    await page.close();
  });

  test('the instrument page: its operator edits it; anyone else reads it without an edit button', async () => {
    const made = await must<{ createInstrument: { uniqueId: string } }>(
      fx.t,
      root.key,
      'mutation($input: CreateInstrumentInput!) { createInstrument(input: $input) { uniqueId } }',
      { input: { instrumentName: `${tag} diffractometer` } },
    );
    const id = made.createInstrument.uniqueId;
    const reader = await open(bob.key, `/instruments/${id}`);
    await reader.getByText('not public').waitFor();
    expect(await reader.getByRole('button', { name: 'Edit fields' }).count()).toBe(0);
    await reader.close();

    const page = await open(root.key, `/instruments/${id}`);
    await page.getByRole('button', { name: 'Edit fields' }).click();
    const form = page.getByRole('form', { name: 'Edit fields' });
    await form.getByLabel('Location').fill('Hall B');
    await form.getByLabel('Manufacturer').fill('Bruker');
    await form.getByLabel('Public').check();
    // the status is not free text: one of three values, from its own select
    expect(await form.getByLabel('Status').count()).toBe(0);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Hall B').waitFor();
    const status = page.getByRole('form', { name: 'Instrument status' }).getByLabel('Status');
    expect(await status.locator('option').allTextContents()).toEqual([
      'active',
      'maintenance',
      'decommissioned',
    ]);
    await status.selectOption('maintenance');
    await page.locator('dd').getByText('maintenance', { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '22-instrument-edited');
    const after = await must<any>(
      fx.t,
      bob.key,
      'query($id: String!) { instrument(id: $id) { location manufacturer public instrumentName status } }',
      { id },
    );
    expect(after.instrument).toEqual({
      location: 'Hall B',
      manufacturer: 'Bruker',
      public: true,
      instrumentName: `${tag} diffractometer`,
      status: 'maintenance',
    });
    await page.close();
  });
});
