import type { Page } from 'playwright-core';
import { browserSuite } from '../support/browser';
import { gql } from '../support/http';
import { addMember, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { createDataset, must, screenshot, seriousViolations } from '../support/web';

/**
 * The managing actions of the web app in the system Chromium: merge metadata, link and unlink,
 * grant and revoke, reassignment and transfer with their previews, and a platform admin approving
 * a deletion request. Each action is checked through the API afterwards, not only on the page.
 */

browserSuite('managing records in the web app', (fx) => {
  let ada: TestUser;
  let bob: TestUser;
  let root: TestUser;
  let first = '';
  let second = '';
  const tag = unique('mng');

  beforeAll(async () => {
    ada = await makeUser(fx.t.app, { username: unique('ada') });
    bob = await makeUser(fx.t.app, { username: unique('bob') });
    root = await makeUser(fx.t.app, { username: unique('root'), admin: true });
    const p = await makeProject(fx.t.app, ada.user);
    const q = await makeProject(fx.t.app, ada.user);
    first = p.projectId;
    second = q.projectId;
    await addMember(fx.t.app, p, ada.user, 'admin');
    await addMember(fx.t.app, q, ada.user, 'admin');
  }, 120_000);

  async function datasetPage(key: string, id: string): Promise<Page> {
    const page = await fx.page({ key: key });
    await page.goto(`${fx.t.url}/datasets/${id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    return page;
  }

  const read = (key: string, id: string) =>
    gql<{ dataset: { ownerOrcid: string; project: { projectId: string } | null; scientificMetadata: any } }>(
      fx.t.url,
      key,
      'query($id: ID!) { dataset(id: $id) { ownerOrcid project { projectId } scientificMetadata } }',
      { id },
    );

  test('merge metadata: bad JSON is refused on the page and changes nothing; a merge keeps the other keys', async () => {
    const id = await createDataset(fx.t, ada.key, {
      datasetName: `${tag} merge`,
      projectId: first,
      scientificMetadata: { operator: 'Ada' },
    });
    const page = await datasetPage(ada.key, id);
    const form = page.getByRole('form', { name: 'Merge metadata' });
    await form.getByLabel('Metadata to merge (JSON)').fill('{"beam": ');
    await form.getByRole('button', { name: 'Merge metadata' }).click();
    await expect(form.getByRole('alert').textContent()).resolves.toMatch(/Not JSON/);
    expect((await read(ada.key, id)).data?.dataset.scientificMetadata).toEqual({ operator: 'Ada' });
    await form.getByLabel('Metadata to merge (JSON)').fill('{"beam": {"energy_keV": 12.5}}');
    await form.getByRole('button', { name: 'Merge metadata' }).click();
    await page.locator('.metadata', { hasText: 'energy_keV: 12.5' }).waitFor();
    expect((await read(ada.key, id)).data?.dataset.scientificMetadata).toEqual({
      operator: 'Ada',
      beam: { energy_keV: 12.5 },
    });
    await page.close();
  });

  test('link a child and unlink it again', async () => {
    const id = await createDataset(fx.t, ada.key, { datasetName: `${tag} raw`, projectId: first });
    const child = await createDataset(fx.t, ada.key, { datasetName: `${tag} calibrated`, projectId: first });
    const page = await datasetPage(ada.key, id);
    await page.getByText('No linked records.').waitFor();
    const form = page.getByRole('form', { name: 'Link a record' });
    await form.getByLabel('Link to').fill(child);
    await form.getByLabel("It is this dataset's").selectOption('child');
    await form.getByLabel('Relationship').selectOption('is_derived_from');
    await form.getByRole('button', { name: 'Link' }).click();
    await page.getByRole('link', { name: `${tag} calibrated` }).waitFor();
    const children = await gql<{ dataset: { children: { uniqueId: string }[] } }>(
      fx.t.url,
      ada.key,
      'query($id: ID!) { dataset(id: $id) { children { uniqueId } } }',
      { id },
    );
    expect(children.data?.dataset.children).toEqual([{ uniqueId: child }]);
    await screenshot(page, '10-dataset-linked');
    await page.getByRole('button', { name: `Unlink ${tag} calibrated` }).click();
    await page.getByText('No linked records.').waitFor();
    const after = await gql<{ dataset: { children: unknown[] } }>(
      fx.t.url,
      ada.key,
      'query($id: ID!) { dataset(id: $id) { children { uniqueId } } }',
      { id },
    );
    expect(after.data?.dataset.children).toEqual([]);
    await page.close();
  });

  test('grant a user read access and revoke it; an unknown principal gets a clear message', async () => {
    const id = await createDataset(fx.t, ada.key, { datasetName: `${tag} shared`, projectId: first });
    expect((await read(bob.key, id)).data?.dataset).toBeUndefined();
    const page = await datasetPage(ada.key, id);
    const access = page.getByRole('region', { name: 'Access' });
    await access.getByText('No grants').waitFor();
    const form = access.getByRole('form', { name: 'Grant access' });
    await form.getByLabel('User', { exact: true }).fill(unique('nobody'));
    await form.getByRole('button', { name: 'Grant' }).click();
    await access.getByRole('alert').waitFor();
    await form.getByLabel('User', { exact: true }).fill(bob.user.username ?? '');
    await form.getByLabel('Permission').selectOption('viewer');
    await form.getByRole('button', { name: 'Grant' }).click();
    await access.getByRole('button', { name: `Revoke ${bob.user.username}` }).waitFor();
    expect((await read(bob.key, id)).data?.dataset.ownerOrcid).toBe(ada.user.uniqueId);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '11-dataset-access');
    await access.getByRole('button', { name: `Revoke ${bob.user.username}` }).click();
    // a confirmation first: its button has the same name
    await access.getByRole('group', { name: /^Confirm: Revoke/ }).waitFor();
    await access.getByRole('button', { name: `Revoke ${bob.user.username}` }).click();
    await access.getByText('No grants').waitFor();
    expect((await read(bob.key, id)).data?.dataset).toBeUndefined();
    await page.close();
  });

  test('reassign and transfer: the preview changes nothing, confirm applies it', async () => {
    const id = await createDataset(fx.t, ada.key, { datasetName: `${tag} moving`, projectId: first });
    const page = await datasetPage(ada.key, id);

    const reassign = page.getByRole('region', { name: 'Reassign project' });
    await reassign.getByLabel('New project').fill(second);
    await reassign.getByRole('button', { name: 'Preview' }).click();
    await reassign.getByText(`Project: ${first} → ${second} (nothing has changed yet)`).waitFor();
    expect((await read(ada.key, id)).data?.dataset.project?.projectId).toBe(first);
    await screenshot(page, '12-reassign-preview');
    await reassign.getByRole('button', { name: 'Confirm reassignment' }).click();
    await page
      .getByRole('region', { name: 'Applied change' })
      .getByText(`Project: ${first} → ${second} (applied)`)
      .waitFor();
    expect((await read(ada.key, id)).data?.dataset.project?.projectId).toBe(second);

    const transfer = page.getByRole('region', { name: 'Transfer ownership' });
    await transfer.getByLabel('New owner').fill(bob.user.username ?? '');
    await transfer.getByRole('button', { name: 'Preview' }).click();
    const preview = transfer.getByRole('region', { name: 'Preview of the change' });
    await preview.getByText('(nothing has changed yet)').waitFor();
    await expect(preview.textContent()).resolves.toMatch(/Gains: .*no access → owner/);
    expect((await read(ada.key, id)).data?.dataset.ownerOrcid).toBe(ada.user.uniqueId);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '13-transfer-preview');
    await transfer.getByRole('button', { name: 'Confirm transfer' }).click();
    await page
      .getByRole('region', { name: 'Applied change' })
      .getByText(/^Owner: .* → .*bob.* \(applied\)$/)
      .waitFor();
    expect((await read(bob.key, id)).data?.dataset.ownerOrcid).toBe(bob.user.uniqueId);
    await page.close();
  });

  test('the sample page: merge metadata, link a dataset, grant access, reassign with a preview', async () => {
    const made = await must<{ createSample: { uniqueId: string } }>(
      fx.t,
      ada.key,
      'mutation($input: CreateSampleInput!) { createSample(input: $input) { uniqueId } }',
      { input: { sampleName: `${tag} wafer`, projectId: first, scientificMetadata: { batch: 7 } } },
    );
    const id = made.createSample.uniqueId;
    const measured = await createDataset(fx.t, ada.key, { datasetName: `${tag} on wafer`, projectId: first });
    const page = await fx.page({ key: ada.key });
    await page.goto(`${fx.t.url}/samples/${id}`);
    await page.getByRole('heading', { level: 1, name: `${tag} wafer` }).waitFor();

    const merge = page.getByRole('form', { name: 'Merge metadata' });
    await merge.getByLabel('Metadata to merge (JSON)').fill('{"thickness_nm": 300}');
    await merge.getByRole('button', { name: 'Merge metadata' }).click();
    await page.locator('.metadata', { hasText: 'thickness_nm: 300' }).waitFor();

    const linkForm = page.getByRole('form', { name: 'Link a record' });
    await linkForm.getByLabel('Link to').fill(measured);
    await linkForm.getByLabel("It is this sample's").selectOption('child');
    await linkForm.getByRole('button', { name: 'Link' }).click();
    await page.getByRole('link', { name: `${tag} on wafer` }).waitFor();

    const access = page.getByRole('region', { name: 'Access' });
    const grantForm = access.getByRole('form', { name: 'Grant access' });
    await grantForm.getByLabel('User', { exact: true }).fill(bob.user.username ?? '');
    await grantForm.getByRole('button', { name: 'Grant' }).click();
    await access.getByRole('button', { name: `Revoke ${bob.user.username}` }).waitFor();

    const reassign = page.getByRole('region', { name: 'Reassign project' });
    await reassign.getByLabel('New project').fill(second);
    await reassign.getByRole('button', { name: 'Preview' }).click();
    await reassign.getByText(`Project: ${first} → ${second} (nothing has changed yet)`).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '15-sample-manage');

    const after = await must<any>(
      fx.t,
      bob.key,
      'query($id: ID!) { sample(id: $id) { scientificMetadata project { projectId } datasets { uniqueId } } }',
      { id },
    );
    expect(after.sample).toEqual({
      scientificMetadata: { batch: 7, thickness_nm: 300 },
      project: { projectId: first },
      datasets: [],
    });
    // bob may read the sample, not the dataset: the link is there for ada
    const mine = await must<any>(
      fx.t,
      ada.key,
      'query($id: ID!) { sample(id: $id) { datasets { uniqueId } } }',
      { id },
    );
    expect(mine.sample.datasets).toEqual([{ uniqueId: measured }]);
    await page.close();
  });

  test('a platform admin approves a deletion request on the review page', async () => {
    const id = await createDataset(fx.t, ada.key, { datasetName: `${tag} obsolete`, projectId: first });
    await must(
      fx.t,
      ada.key,
      'mutation($id: ID!) { requestDeletion(id: $id, reason: "superseded") { id } }',
      {
        id,
      },
    );
    const page = await fx.page({ key: root.key });
    // an administrator's session starts in the member's view: elevate first
    await page.getByRole('button', { name: 'Elevate to administrator' }).click();
    await page.getByRole('link', { name: 'Deletion requests' }).waitFor();
    await page.goto(`${fx.t.url}/deletion-requests`);
    const item = page.getByRole('row').filter({ hasText: `${tag} obsolete` });
    await item.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '14-deletion-requests');
    await item.getByRole('button', { name: 'Approve' }).click();
    await item.getByLabel('Note for the requester (optional)').fill('duplicate of another run');
    await item.getByRole('button', { name: 'Approve and delete' }).click();
    await item.waitFor({ state: 'detached' });
    expect((await read(ada.key, id)).data?.dataset).toBeUndefined();
    await page.close();
  });
});
