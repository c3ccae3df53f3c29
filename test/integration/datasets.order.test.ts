import { startTestApp, type TestApp } from '../support/app';
import { gql } from '../support/http';
import { addMember, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import type { Project } from '../../src/modules/project/project.entity';

/**
 * `datasets(orderBy:)`: one column then the MFID, empty values last both ways, keyset cursors that
 * carry the sort key (paging through gives every row once, in order), and cursors refused when
 * forged or issued for another order.
 */
let t: TestApp;
let alice: TestUser;
let eve: TestUser;
let project: Project;
const names = ['delta', 'Alpha', 'charlie', 'bravo', 'echo', 'alpha'];
const ids: string[] = [];
let unnamed = '';
let foreign = '';

const LIST = `query($first: Int, $after: String, $filter: DatasetFilterInput, $orderBy: DatasetOrderInput) {
  datasets(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { uniqueId datasetName size measurement creationTime }
  }
}`;

interface Row {
  uniqueId: string;
  datasetName: string | null;
  size: number;
  measurement: string | null;
  creationTime: string;
}

async function all(key: string, orderBy: Record<string, string>, first: number): Promise<Row[]> {
  const rows: Row[] = [];
  let after: string | null = null;
  for (let i = 0; i < 50; i++) {
    const r: any = await gql<any>(t.url, key, LIST, {
      first,
      after,
      filter: { projectId: project.projectId },
      orderBy,
    });
    expect(r.errors).toBeUndefined();
    rows.push(...r.data.datasets.nodes);
    if (!r.data.datasets.pageInfo.hasNextPage) return rows;
    after = r.data.datasets.pageInfo.endCursor;
  }
  throw new Error('paging did not end');
}

beforeAll(async () => {
  t = await startTestApp();
  alice = await makeUser(t.app);
  eve = await makeUser(t.app);
  project = await makeProject(t.app, alice.user);
  await addMember(t.app, project, alice.user, 'admin');
  await addMember(t.app, project, eve.user, 'contributor');
  const create = async (key: string, input: Record<string, unknown>) => {
    const r = await gql<any>(
      t.url,
      key,
      'mutation($input: CreateDatasetInput!) { createDataset(input: $input) { uniqueId } }',
      { input },
    );
    expect(r.errors).toBeUndefined();
    return r.data.createDataset.uniqueId as string;
  };
  for (const [i, name] of names.entries())
    ids.push(
      await create(alice.key, {
        datasetName: name,
        projectId: project.projectId,
        measurement: i % 2 ? 'XRD' : 'SEM',
        public: false,
      }),
    );
  unnamed = await create(alice.key, { projectId: project.projectId, measurement: 'XRD' });
  // another member's dataset, without a measurement
  foreign = await create(eve.key, { datasetName: 'aardvark', projectId: project.projectId });
});

afterAll(() => t.close());

test('by name ascending, then descending: the MFID breaks ties, records without a name come last', async () => {
  const asc = await all(alice.key, { field: 'datasetName', direction: 'asc' }, 2);
  const expected = await gql<any>(t.url, alice.key, LIST, {
    first: 100,
    filter: { projectId: project.projectId },
  });
  const visible: Row[] = expected.data.datasets.nodes;
  expect(asc).toHaveLength(visible.length);
  expect(new Set(asc.map((r) => r.uniqueId)).size).toBe(asc.length);
  expect(asc[asc.length - 1].uniqueId).toBe(unnamed);
  const named = asc.slice(0, -1).map((r) => r.datasetName ?? '');
  // without regard to case: 'Alpha' and 'alpha' tie, and the MFID decides between them
  expect(named.slice(0, 3).sort()).toEqual(['Alpha', 'aardvark', 'alpha']);
  expect(named[0]).toBe('aardvark');
  const alphas = asc.slice(1, 3).map((r) => r.uniqueId);
  expect(alphas).toEqual([...alphas].sort());
  const desc = await all(alice.key, { field: 'datasetName', direction: 'desc' }, 3);
  expect(desc[desc.length - 1].uniqueId).toBe(unnamed);
  expect(desc.slice(0, -1).map((r) => r.uniqueId)).toEqual(
    asc
      .slice(0, -1)
      .map((r) => r.uniqueId)
      .reverse(),
  );
  expect(named.indexOf('bravo')).toBeLessThan(named.indexOf('charlie'));
  expect(named.indexOf('charlie')).toBeLessThan(named.indexOf('delta'));
  expect(named.indexOf('delta')).toBeLessThan(named.indexOf('echo'));
});

test('by measurement: ties broken by MFID in the same direction, each row once across pages', async () => {
  for (const direction of ['asc', 'desc']) {
    const rows = await all(alice.key, { field: 'measurement', direction }, 1);
    expect(new Set(rows.map((r) => r.uniqueId)).size).toBe(rows.length);
    const keyed = rows.filter((r) => r.measurement !== null);
    const sorted = [...keyed].sort((a, b) => {
      const m = (a.measurement ?? '').localeCompare(b.measurement ?? '');
      const byId = a.uniqueId < b.uniqueId ? -1 : 1;
      return direction === 'asc' ? m || byId : -m || -byId;
    });
    expect(keyed.map((r) => r.uniqueId)).toEqual(sorted.map((r) => r.uniqueId));
    // aardvark has no measurement: last both ways
    expect(rows[rows.length - 1].uniqueId).toBe(foreign);
  }
});

test('by creation time, newest first, equals the default order; by size all equal → MFID order', async () => {
  const byTime = await all(alice.key, { field: 'creationTime', direction: 'desc' }, 4);
  const times = byTime.map((r) => Date.parse(r.creationTime));
  expect([...times].sort((a, b) => b - a)).toEqual(times);
  const bySize = await all(alice.key, { field: 'size', direction: 'asc' }, 3);
  expect(bySize.map((r) => r.uniqueId)).toEqual(bySize.map((r) => r.uniqueId).sort());
});

test('a cursor is valid only for its order; a forged or newest-first cursor is a 4xx-style error', async () => {
  const first = await gql<any>(t.url, alice.key, LIST, {
    first: 2,
    filter: { projectId: project.projectId },
    orderBy: { field: 'datasetName', direction: 'asc' },
  });
  const cursor = first.data.datasets.pageInfo.endCursor as string;
  const plain = await gql<any>(t.url, alice.key, LIST, {
    first: 2,
    filter: { projectId: project.projectId },
  });
  const plainCursor = plain.data.datasets.pageInfo.endCursor as string;
  const forged = Buffer.from(
    `o:${JSON.stringify(['datasetName', 'asc', false, "x' or 1=1", 'nope'])}`,
  ).toString('base64url');
  const cases: [string, Record<string, string>][] = [
    [cursor, { field: 'datasetName', direction: 'desc' }],
    [cursor, { field: 'measurement', direction: 'asc' }],
    [plainCursor, { field: 'datasetName', direction: 'asc' }],
    [forged, { field: 'datasetName', direction: 'asc' }],
    ['not-base64-%%%', { field: 'size', direction: 'asc' }],
  ];
  for (const [after, orderBy] of cases) {
    const r = await gql<any>(t.url, alice.key, LIST, { first: 2, after, orderBy });
    expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(r.errors?.[0]?.message).toMatch(/after/);
  }
  // a sorted cursor is no newest-first cursor either
  const r = await gql<any>(t.url, alice.key, LIST, { first: 2, after: cursor });
  expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
});

test('visibility is the same sorted: a non-member sees none of the project', async () => {
  const stranger = await makeUser(t.app, { username: unique('stranger') });
  const r = await gql<any>(t.url, stranger.key, LIST, {
    first: 100,
    filter: { projectId: project.projectId },
    orderBy: { field: 'datasetName', direction: 'asc' },
  });
  expect(r.errors).toBeUndefined();
  expect(r.data.datasets.nodes).toEqual([]);
});

test('by creation and modification time: row-comparison keyset, ties on the time broken by MFID, each row once', async () => {
  // three datasets share one creation time and two another modification time: the cursor's
  // (time, MFID) comparison must page through the ties in MFID order, both ways
  const em = t.app.orm.em.fork();
  const at = '2026-01-02 03:04:05.123456+00';
  await em
    .getConnection()
    .execute('update dataset set creation_time = ? where unique_id in (?, ?, ?)', [
      at,
      ids[0],
      ids[2],
      ids[4],
    ]);
  await em
    .getConnection()
    .execute('update dataset set modification_time = ? where unique_id in (?, ?)', [at, ids[1], ids[3]]);
  const all1 = await gql<any>(t.url, alice.key, LIST, {
    first: 100,
    filter: { projectId: project.projectId },
  });
  const visible = (all1.data.datasets.nodes as Row[]).map((r) => r.uniqueId);
  for (const field of ['creationTime', 'modificationTime'])
    for (const direction of ['asc', 'desc']) {
      const rows = await all(alice.key, { field, direction }, 1);
      expect(rows.map((r) => r.uniqueId).sort()).toEqual([...visible].sort());
      const keyed = await em.getConnection().execute<{ unique_id: string }[]>(
        `select unique_id from dataset where unique_id in (${visible.map(() => '?').join(',')})
           order by ${field === 'creationTime' ? 'creation_time' : 'modification_time'} ${direction}, unique_id ${direction}`,
        visible,
      );
      expect(rows.map((r) => r.uniqueId)).toEqual(keyed.map((r) => r.unique_id));
    }
});

test('a time-sorted cursor claiming an empty time (never issued: the columns are never null) is refused', async () => {
  const forged = Buffer.from(`o:${JSON.stringify(['creationTime', 'desc', true, '', ids[0]])}`).toString(
    'base64url',
  );
  const r = await gql<any>(t.url, alice.key, LIST, {
    first: 2,
    after: forged,
    orderBy: { field: 'creationTime', direction: 'desc' },
  });
  expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  expect(r.errors?.[0]?.message).toMatch(/after/);
});

test('several records without a name: paged through one at a time after the named ones, by MFID in the direction', async () => {
  const more: string[] = [];
  for (let i = 0; i < 2; i++) {
    const r = await gql<any>(
      t.url,
      alice.key,
      'mutation($input: CreateDatasetInput!) { createDataset(input: $input) { uniqueId } }',
      { input: { projectId: project.projectId } },
    );
    expect(r.errors).toBeUndefined();
    more.push(r.data.createDataset.uniqueId as string);
  }
  const empty = [unnamed, ...more].sort();
  for (const direction of ['asc', 'desc']) {
    const rows = await all(alice.key, { field: 'datasetName', direction }, 1);
    expect(new Set(rows.map((r) => r.uniqueId)).size).toBe(rows.length);
    const tail = rows.slice(-3).map((r) => r.uniqueId);
    expect(tail).toEqual(direction === 'asc' ? empty : [...empty].reverse());
    expect(rows.slice(0, -3).every((r) => r.datasetName !== null)).toBe(true);
  }
});
