import { startTestApp, type TestApp } from '../support/app';
import { rest } from '../support/http';
import { addMember, grant, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import type { Project } from '../../src/modules/project/project.entity';
import { rawQuery } from '../../src/core/db/raw';

let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let stranger: TestUser;
let project: Project;
let elsewhere: Project;
const ids: Record<string, string> = {};

const create = async (key: string, body: Record<string, unknown>) => {
  const res = await rest(t.url, 'POST', '/datasets', { key, body });
  expect(res.status).toBe(201);
  return res.body.unique_id as string;
};
const list = (key: string, query: Record<string, string | number | string[]>) =>
  rest(t.url, 'GET', '/datasets', { key, query });

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  alice = await makeUser(t.app);
  bob = await makeUser(t.app);
  stranger = await makeUser(t.app);
  project = await makeProject(t.app, admin.user);
  elsewhere = await makeProject(t.app, admin.user);
  await addMember(t.app, project, alice.user, 'contributor');
  await addMember(t.app, project, bob.user, 'viewer');
  await addMember(t.app, elsewhere, alice.user, 'contributor');
  const session = unique('sess');
  for (let i = 0; i < 7; i++) {
    ids[`p${i}`] = await create(alice.key, {
      dataset_name: `p${i}`,
      project_id: project.projectId,
      session_name: session,
      measurement: i % 2 ? 'odd' : 'even',
    });
  }
  ids.shared = await create(alice.key, {
    dataset_name: 'shared',
    project_id: elsewhere.projectId,
    session_name: session,
  });
  await grant(t.app, ids.shared, 'dataset', 'project', project.uniqueId, 'viewer');
  ids.public = await create(alice.key, { dataset_name: 'public', public: true, session_name: session });
  ids.private = await create(alice.key, { dataset_name: 'private', session_name: session });
  ids.session = session;
});
afterAll(() => t.close());

test('keyset envelope, newest first, with total; cursor pages cover everything once', async () => {
  const first = await list(alice.key, { session_name: ids.session, limit: 4 });
  expect(first.status).toBe(200);
  expect(Object.keys(first.body).sort()).toEqual(['items', 'next_cursor', 'total', 'total_exact']);
  expect(first.body.total).toBe(10);
  expect(first.body.items).toHaveLength(4);
  const seen: string[] = first.body.items.map((d: { unique_id: string }) => d.unique_id);
  let cursor = first.body.next_cursor as string | null;
  while (cursor) {
    const page = await list(alice.key, { session_name: ids.session, limit: 4, cursor });
    seen.push(...page.body.items.map((d: { unique_id: string }) => d.unique_id));
    cursor = page.body.next_cursor;
  }
  expect(seen).toHaveLength(10);
  expect(new Set(seen).size).toBe(10);
  expect([...seen].sort().reverse()).toEqual(seen);
  expect(first.body.items[0].capabilities).toBeNull();
  expect(first.body.items[0]).not.toHaveProperty('owner');
});

test('count with limit=1; limit up to 1000 and a larger one is capped; bad cursors are 422', async () => {
  const count = await list(alice.key, { session_name: ids.session, limit: 1 });
  expect(count.body.total).toBe(10);
  expect(count.body.items).toHaveLength(1);
  expect((await list(alice.key, { session_name: ids.session, limit: 1000 })).body.items).toHaveLength(10);
  expect((await list(alice.key, { session_name: ids.session, limit: 99999 })).status).toBe(200);
  expect((await list(alice.key, { limit: 0 })).status).toBe(422);
  const bad = await list(alice.key, { cursor: 'garbage' });
  expect(bad.status).toBe(422);
  expect(bad.body.detail).toMatch(/cursor/);
});

test('only readable datasets are listed and counted', async () => {
  const asStranger = await list(stranger.key, { session_name: ids.session });
  expect(asStranger.body.items.map((d: { dataset_name: string }) => d.dataset_name)).toEqual(['public']);
  expect(asStranger.body.total).toBe(1);
  const asBob = await list(bob.key, { session_name: ids.session });
  // member of `project` (7 assigned) + shared with project (via project grant) + public
  expect(asBob.body.total).toBe(9);
  expect(asBob.body.items.map((d: { dataset_name: string }) => d.dataset_name)).not.toContain('private');
  expect((await list(admin.key, { session_name: ids.session })).body.total).toBe(10);
});

test('project scope: assigned (default), shared and all, with project_relation', async () => {
  const assigned = await list(bob.key, { project_id: project.projectId, session_name: ids.session });
  expect(assigned.body.total).toBe(7);
  expect(new Set(assigned.body.items.map((d: { project_relation: string }) => d.project_relation))).toEqual(
    new Set(['assigned']),
  );
  const shared = await list(bob.key, { project_mfid: project.uniqueId, project_scope: 'shared' });
  expect(shared.body.items.map((d: { unique_id: string }) => d.unique_id)).toEqual([ids.shared]);
  expect(shared.body.items[0].project_relation).toBe('shared');
  const all = await list(bob.key, {
    project_id: project.projectId,
    project_mfid: project.uniqueId,
    project_scope: 'all',
  });
  expect(all.body.total).toBe(8);
  expect(
    (await list(bob.key, { project_id: project.projectId, project_mfid: elsewhere.uniqueId })).status,
  ).toBe(422);
  expect((await list(bob.key, { project_id: project.projectId, project_scope: 'mine' })).status).toBe(422);
});

test('exact-match legacy filters and booleans', async () => {
  const byName = await list(alice.key, { dataset_name: 'p3', session_name: ids.session });
  expect(byName.body.items.map((d: { unique_id: string }) => d.unique_id)).toEqual([ids.p3]);
  expect((await list(alice.key, { dataset_name: 'P3', session_name: ids.session })).body.total).toBe(0);
  expect((await list(alice.key, { measurement: 'odd', session_name: ids.session })).body.total).toBe(3);
  expect((await list(alice.key, { public: 'True', session_name: ids.session })).body.total).toBe(1);
  expect((await list(alice.key, { public: 'false', session_name: ids.session })).body.total).toBe(9);
  expect(
    (await list(alice.key, { owner_orcid: alice.user.uniqueId, session_name: ids.session })).body.total,
  ).toBe(10);
  expect((await list(alice.key, { unique_id: ids.p0 })).body.total).toBe(1);
  expect((await list(alice.key, { size: 0, session_name: ids.session })).body.total).toBe(10);
  expect((await list(alice.key, { size: 'big' })).status).toBe(422);
  expect((await list(alice.key, { public: 'perhaps' })).status).toBe(422);
});

test('keyword filter is a case-insensitive substring', async () => {
  const word = unique('Perovskite');
  expect(
    (await rest(t.url, 'POST', `/datasets/${ids.p1}/keywords`, { key: alice.key, query: { keyword: word } }))
      .status,
  ).toBe(201);
  const hits = await list(alice.key, { keyword: word.slice(2, 12).toLowerCase() });
  expect(hits.body.items.map((d: { unique_id: string }) => d.unique_id)).toEqual([ids.p1]);
  const keywords = await rest(t.url, 'GET', `/datasets/${ids.p1}/keywords`, { key: alice.key });
  expect(keywords.body).toEqual([{ keyword: word, num_datasets: 1 }]);
  expect((await list(alice.key, { keyword: '100%_' })).body.total).toBe(0);
  expect((await rest(t.url, 'POST', `/datasets/${ids.p1}/keywords`, { key: alice.key })).status).toBe(422);
  expect(
    (
      await rest(t.url, 'POST', `/datasets/${ids.p1}/keywords`, {
        key: stranger.key,
        query: { keyword: 'x' },
      })
    ).status,
  ).toBe(404);
  expect(
    (await rest(t.url, 'POST', `/datasets/${ids.p1}/keywords`, { key: bob.key, query: { keyword: 'x' } }))
      .status,
  ).toBe(403);
});

test('instrument_mfid lists an instrument across projects and excludes legacy records', async () => {
  const name = unique('Diffractometer');
  const inst = (
    await rest(t.url, 'POST', '/instruments', { key: admin.key, body: { instrument_name: name } })
  ).body;
  const a = await create(alice.key, { instrument_mfid: inst.unique_id, project_id: project.projectId });
  const b = await create(alice.key, { instrument_name: name, project_id: elsewhere.projectId });
  // an imported legacy record: its instrument is a name only
  const legacy = await create(alice.key, {});
  await rawQuery(
    t.app.orm.em.fork(),
    'update dataset set instrument_mfid = null, legacy_instrument_name = ? where unique_id = ?',
    [`${name} (unregistered)`, legacy],
  );
  const res = await list(alice.key, { instrument_mfid: inst.unique_id });
  expect(res.body.items.map((d: { unique_id: string }) => d.unique_id)).toEqual([b, a]);
  const narrowed = await list(alice.key, { instrument_mfid: inst.unique_id, project_id: project.projectId });
  expect(narrowed.body.items.map((d: { unique_id: string }) => d.unique_id)).toEqual([a]);
  expect((await list(alice.key, { instrument_name: `${name} (unregistered)` })).body.total).toBe(1);
});
