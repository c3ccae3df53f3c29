import { startTestApp, type TestApp } from '../support/app';
import { rest } from '../support/http';
import { addMember, grant, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';
import type { Project } from '../../src/modules/project/project.entity';

/**
 * `accessible_to_project` at size (docs/scale.md, "Access selectors"): a page newest first starts
 * from the list of the project's MFIDs when they are few (ID_LIST_LIMIT), else keeps the project
 * column or the granted MFIDs; the total of a selector with only tallied filters comes from the
 * tally, plus the readable datasets granted to the project, minus those a deletion request hides.
 * Two services over the same database (the default, and ID_LIST_LIMIT=0) must give the same
 * rows, order and totals, and the totals must equal a count of the rows.
 */
let list: TestApp;
let walk: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let p1: Project;
let p2: Project;
const session = unique('selplan');
const ds: Record<string, string> = {};
// measurements of this file only (other files count theirs across the shared database)
const XRD = unique('xrd');
const TEM = unique('tem');

type Query = Record<string, string | string[]>;

/** Every page (limit 2), in order, as names; and the total of the first. */
async function pages(app: TestApp, key: string, query: Query, path = '/datasets') {
  const names: string[] = [];
  let cursor: string | undefined;
  let total: unknown;
  for (let i = 0; i < 20; i++) {
    const res = await rest(app.url, 'GET', path, {
      key,
      query: { ...query, limit: '2', ...(cursor ? { cursor } : {}) },
    });
    expect(res.status).toBe(200);
    total ??= res.body.total;
    names.push(
      ...res.body.items.map(
        (d: { unique_id: string }) => Object.keys(ds).find((k) => ds[k] === d.unique_id) ?? d.unique_id,
      ),
    );
    cursor = res.body.next_cursor ?? undefined;
    if (!cursor) break;
  }
  return { names, total };
}

beforeAll(async () => {
  [list, walk] = await Promise.all([startTestApp(), startTestApp({ ID_LIST_LIMIT: '0' })]);
  admin = await makeUser(list.app, { admin: true });
  alice = await makeUser(list.app);
  bob = await makeUser(list.app);
  p1 = await makeProject(list.app, admin.user);
  p2 = await makeProject(list.app, admin.user);
  await addMember(list.app, p1, alice.user, 'contributor');
  await addMember(list.app, p2, alice.user, 'contributor');
  await addMember(list.app, p1, bob.user, 'viewer');
  const make = (name: string, key: string, body: Record<string, unknown>) =>
    newDataset(list.url, key, {
      dataset_name: name,
      session_name: session,
      measurement: XRD,
      ...body,
    }).then((id) => (ds[name] = id));
  await make('inP1', alice.key, { project_id: p1.projectId });
  await make('inP1tem', alice.key, { project_id: p1.projectId, measurement: TEM });
  await make('inP2', alice.key, { project_id: p2.projectId });
  await make('p2toP1', alice.key, { project_id: p2.projectId });
  await grant(list.app, ds.p2toP1, 'dataset', 'project', p1.uniqueId, 'viewer');
  await make('noneToP1', alice.key, {});
  await grant(list.app, ds.noneToP1, 'dataset', 'project', p1.uniqueId, 'viewer');
  // granted to P1 twice over: assigned to it too (counted once)
  await make('inP1granted', alice.key, { project_id: p1.projectId });
  await grant(list.app, ds.inP1granted, 'dataset', 'project', p1.uniqueId, 'viewer');
  await make('hidden', alice.key, { project_id: p1.projectId });
  await make('hiddenGranted', alice.key, {});
  await grant(list.app, ds.hiddenGranted, 'dataset', 'project', p1.uniqueId, 'viewer');
  for (const id of [ds.hidden, ds.hiddenGranted]) {
    const res = await rest(list.url, 'POST', `/resources/${id}/delete`, {
      key: alice.key,
      query: { reason: 'x' },
    });
    expect(res.status).toBe(201);
  }
  await make('aliceOnly', alice.key, {});
}, 120_000);
afterAll(() => Promise.all([list, walk].map((a) => a?.close())));

const CASES: [string, () => TestUser, () => Query, string[]][] = [
  [
    'a member',
    () => bob,
    () => ({ accessible_to_project: p1.projectId }),
    ['inP1granted', 'noneToP1', 'p2toP1', 'inP1tem', 'inP1'],
  ],
  [
    'a member of both',
    () => alice,
    () => ({ accessible_to_project: p1.uniqueId }),
    ['inP1granted', 'noneToP1', 'p2toP1', 'inP1tem', 'inP1'],
  ],
  [
    'the admin, with a tallied filter',
    () => admin,
    () => ({ accessible_to_project: p1.projectId, measurement: TEM }),
    ['inP1tem'],
  ],
  [
    'with a project filter',
    () => alice,
    () => ({ accessible_to_project: p1.projectId, project_mfid: p2.uniqueId }),
    ['p2toP1'],
  ],
  [
    'two names of one project',
    () => alice,
    () => ({ accessible_to_project: [p1.projectId, p1.uniqueId] }),
    ['inP1granted', 'noneToP1', 'p2toP1', 'inP1tem', 'inP1'],
  ],
  ['two projects', () => alice, () => ({ accessible_to_project: [p1.projectId, p2.projectId] }), ['p2toP1']],
];

test.each(CASES)(
  '%s: the same rows, order and exact total on both plans',
  async (_, who, query, expected) => {
    for (const app of [list, walk]) {
      const got = await pages(app, who().key, query());
      expect(got).toEqual({ names: expected, total: expected.length });
    }
  },
);

test('the total comes from the totals, and equals a count of the rows', async () => {
  for (const [, who, query, expected] of CASES) {
    // the session filter is not tallied: the same datasets, counted row by row
    const rows = await rest(list.url, 'GET', '/datasets', {
      key: who().key,
      query: { ...query(), session_name: session, limit: '1' },
    });
    expect(rows.body.total).toBe(expected.length);
  }
  list.queries.length = 0;
  const res = await rest(list.url, 'GET', '/datasets', {
    key: bob.key,
    query: { accessible_to_project: p1.projectId },
  });
  expect(res.body.total).toBe(5);
  expect(list.queries.some((q) => q.includes('from dataset_total'))).toBe(true);
  // and a grant to the caller changes it as a row count would
  await grant(list.app, ds.aliceOnly, 'dataset', 'user', bob.user.uniqueId, 'viewer');
  const more = await rest(list.url, 'GET', '/datasets', {
    key: bob.key,
    query: { accessible_to_project: p1.projectId },
  });
  expect(more.body.total).toBe(5);
  await grant(list.app, ds.inP2, 'dataset', 'project', p1.uniqueId, 'viewer');
  const granted = await pages(walk, bob.key, { accessible_to_project: p1.projectId });
  expect(granted).toEqual({
    names: ['inP1granted', 'noneToP1', 'p2toP1', 'inP2', 'inP1tem', 'inP1'],
    total: 6,
  });
  expect(await pages(list, bob.key, { accessible_to_project: p1.projectId })).toEqual(granted);
});

test('the page plan: the project list when few, the project column past ID_LIST_LIMIT', async () => {
  for (const [app, listed] of [
    [list, true],
    [walk, false],
  ] as const) {
    app.queries.length = 0;
    await pages(app, alice.key, { accessible_to_project: p1.projectId });
    expect(
      app.queries.some((q) => q.includes('unique_id = any(array(select x.unique_id from dataset x')),
    ).toBe(listed);
  }
});

test('samples take the same plans', async () => {
  const s1 = await newSample(list.url, alice.key, { project_id: p1.projectId, sample_name: session });
  const s2 = await newSample(list.url, alice.key, { sample_name: session });
  await grant(list.app, s2, 'sample', 'project', p1.uniqueId, 'viewer');
  await newSample(list.url, alice.key, { project_id: p2.projectId, sample_name: session });
  for (const app of [list, walk]) {
    const got = await pages(
      app,
      bob.key,
      { accessible_to_project: p1.projectId, sample_name: session },
      '/samples',
    );
    expect(got).toEqual({ names: [s2, s1], total: 2 });
  }
});
