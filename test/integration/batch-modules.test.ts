import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { grant, makeProject, makeUser, type TestUser } from '../support/factories';
import { newDataset } from '../support/catalog';
import { rawQuery } from '../../src/core/db/raw';

/**
 * Batch edits through the owning modules (docs/web-app.md, "Edit many at once"): an undo's
 * side-index rows for many earlier documents at once, the events' projects as the batch read
 * them, and the items page reading names and visibility through the dataset module.
 */
let t: TestApp;
let owner: TestUser;
let helper: TestUser;

beforeAll(async () => {
  t = await startTestApp({ BATCH_MAX_TARGETS: '5' });
  owner = await makeUser(t.app);
  helper = await makeUser(t.app);
});
afterAll(() => t.close());

const preview = (key: string, body: Record<string, unknown>) =>
  rest(t.url, 'POST', '/dataset_batches', { key, body });
const apply = (key: string, id: string, token: string) =>
  rest(t.url, 'POST', `/dataset_batches/${id}/apply`, { key, body: { token } });
const undo = (key: string, id: string) => rest(t.url, 'POST', `/dataset_batches/${id}/undo`, { key });
const hotter = async (session: string, than: string) => {
  const res = await gql(
    t.url,
    owner.key,
    `query($f: DatasetFilterInput) { datasets(filter: $f) { nodes { uniqueId } } }`,
    { f: { sessionName: session, metadata: [{ path: 'temperature', op: 'gt', value: than }] } },
  );
  expect(res.errors).toBeUndefined();
  return (res.data.datasets.nodes as { uniqueId: string }[]).map((n) => n.uniqueId).sort();
};

describe('batch edits through the owning modules', () => {
  test("an undo restores each dataset's own side-index rows, whatever its earlier document", async () => {
    const session = `metaundo${Date.now()}`;
    const a = await newDataset(t.url, owner.key, {
      session_name: session,
      scientific_metadata: { temperature: '300 K', label: 'alpha' },
    });
    const b = await newDataset(t.url, owner.key, {
      session_name: session,
      scientific_metadata: { temperature: '320 K', label: 'beta' },
    });
    const c = await newDataset(t.url, owner.key, { session_name: session });
    const p = await preview(owner.key, {
      dataset_ids: [a, b, c],
      operation: { kind: 'merge_metadata', metadata: { temperature: '350 K', label: 'same' } },
    });
    expect((await apply(owner.key, p.body.batch_id, p.body.token)).status).toBe(200);
    expect(await hotter(session, '340 K')).toEqual([a, b, c].sort());
    expect((await undo(owner.key, p.body.batch_id)).status).toBe(200);
    expect(await hotter(session, '340 K')).toEqual([]);
    expect(await hotter(session, '310 K')).toEqual([b]);
    expect(await hotter(session, '290 K')).toEqual([a, b].sort());
    const strings = await rawQuery<{ resource_id: string; str: string }>(
      t.app.orm.em.fork(),
      `select resource_id, str from metadata_string where resource_id in (?, ?, ?) and path = 'label'`,
      [a, b, c],
    );
    expect(Object.fromEntries(strings.map((r) => [r.resource_id, r.str]))).toEqual({
      [a]: 'alpha',
      [b]: 'beta',
    });
  });

  test("a batch's events carry each dataset's project", async () => {
    const project = await makeProject(t.app, owner.user);
    const inProject = await newDataset(t.url, owner.key, { project_id: project.projectId });
    const loose = await newDataset(t.url, owner.key);
    const p = await preview(owner.key, {
      dataset_ids: [inProject, loose],
      operation: { kind: 'add_keyword', keyword: 'projkw' },
    });
    expect((await apply(owner.key, p.body.batch_id, p.body.token)).status).toBe(200);
    expect((await undo(owner.key, p.body.batch_id)).status).toBe(200);
    const events = await rawQuery<{ resource_id: string; project_mfid: string | null; type: string }>(
      t.app.orm.em.fork(),
      `select resource_id, project_mfid, type from domain_event where payload ->> 'batch_id' = ? order by id`,
      [p.body.batch_id],
    );
    expect(events).toHaveLength(4);
    for (const e of events) {
      expect(e.project_mfid).toBe(e.resource_id === inProject ? project.uniqueId : null);
    }
  });

  test('the items page leaves out datasets the actor may no longer read, and pages on past them', async () => {
    const [a, b, c] = [
      await newDataset(t.url, owner.key),
      await newDataset(t.url, owner.key),
      await newDataset(t.url, owner.key),
    ].sort();
    for (const id of [a, b, c])
      await grant(t.app, id, 'dataset', 'user', helper.user.uniqueId, 'contributor');
    const p = await preview(helper.key, {
      dataset_ids: [a, b, c],
      operation: { kind: 'add_keyword', keyword: 'pagekw' },
    });
    expect(p.status).toBe(201);
    await rawQuery(
      t.app.orm.em.fork(),
      'delete from access_grant where resource_id = ? and principal_id = ?',
      [a, helper.user.uniqueId],
    );
    const page = (cursor?: string) =>
      rest(t.url, 'GET', `/dataset_batches/${p.body.batch_id}/items`, {
        key: helper.key,
        query: { changed_only: 'false', limit: 1, ...(cursor ? { cursor } : {}) },
      });
    const first = await page();
    expect(first.body.items.map((i: { unique_id: string }) => i.unique_id)).toEqual([b]);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await page(first.body.next_cursor);
    expect(second.body.items.map((i: { unique_id: string }) => i.unique_id)).toEqual([c]);
    expect(second.body.next_cursor).toBeNull();
  });
});
