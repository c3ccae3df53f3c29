import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { addMember, grant, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset } from '../support/catalog';
import type { Project } from '../../src/modules/project/project.entity';

/**
 * A service account bound to an instrument holds contributor on the datasets recorded with it
 * (docs/access-control.md §5a): single reads, lists and their totals, field and all-dimension
 * facets, the keyword tally, writes a contributor may make (and not the others), capabilities,
 * `effective_access`, reassignment previews; a person maintaining the instrument gets nothing;
 * unbinding takes it away on the next request.
 */
let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let sa: TestUser;
let maintainer: TestUser;
let home: Project;
let target: Project;
let instrument: string;
let other: string;
const M = unique('xrd');
const S = { one: unique('s1'), two: unique('s2') };
const ids: Record<string, string> = {};

const get = (key: string, path: string, query: Record<string, string | number> = {}) =>
  rest(t.url, 'GET', path, { key, version: 3, query });
const listed = async (key: string, query: Record<string, string | number>) => {
  const res = await get(key, '/datasets', { ...query, limit: 100, include_total: 'True' });
  expect(res.status).toBe(200);
  return res.body as { items: { unique_id: string }[]; total: number };
};
const bind = (method: 'POST' | 'DELETE') =>
  rest(t.url, method, `/instruments/${instrument}/service_accounts/${sa.user.uniqueId}`, {
    key: admin.key,
    version: 3,
  });

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  [alice, bob, maintainer] = await Promise.all([makeUser(t.app), makeUser(t.app), makeUser(t.app)]);
  sa = await makeUser(t.app, { serviceAccount: true });
  home = await makeProject(t.app, admin.user);
  target = await makeProject(t.app, admin.user);
  await addMember(t.app, home, alice.user, 'contributor');
  await addMember(t.app, target, alice.user, 'contributor');
  await addMember(t.app, home, sa.user, 'viewer');
  const inst = async () =>
    (
      await rest(t.url, 'POST', '/instruments', {
        key: admin.key,
        body: { instrument_name: unique('Diffractometer'), instrument_id: unique('diff') },
      })
    ).body.unique_id as string;
  instrument = await inst();
  other = await inst();
  const base = { measurement: M, data_format: 'h5' };
  ids.bound = await newDataset(t.url, alice.key, {
    ...base,
    session_name: S.one,
    instrument_mfid: instrument,
  });
  ids.boundInProject = await newDataset(t.url, alice.key, {
    ...base,
    session_name: S.two,
    instrument_mfid: instrument,
    project_id: home.projectId,
  });
  ids.inProject = await newDataset(t.url, alice.key, {
    ...base,
    session_name: S.two,
    project_id: home.projectId,
  });
  ids.noInstrument = await newDataset(t.url, alice.key, { ...base, session_name: S.one });
  ids.otherInstrument = await newDataset(t.url, alice.key, {
    ...base,
    session_name: S.one,
    instrument_mfid: other,
  });
  ids.publicBound = await newDataset(t.url, alice.key, {
    ...base,
    session_name: S.one,
    instrument_mfid: instrument,
    public: true,
  });
  // granted to the account and recorded with the instrument: counted once
  ids.grantedBound = await newDataset(t.url, bob.key, {
    ...base,
    session_name: S.two,
    instrument_mfid: instrument,
  });
  await grant(t.app, ids.grantedBound, 'dataset', 'user', sa.user.uniqueId, 'viewer');
  // a person maintaining the instrument reaches none of its datasets
  const maintained = await rest(
    t.url,
    'PUT',
    `/resources/${instrument}/access/users/${maintainer.user.uniqueId}`,
    {
      key: admin.key,
      body: { permission: 'editor' },
    },
  );
  expect(maintained.status).toBe(200);
}, 120_000);
afterAll(() => t.close());

describe('a service account bound to an instrument', () => {
  test('reads the datasets recorded with it once bound, in single reads and lists with exact totals', async () => {
    const before = ['inProject', 'boundInProject', 'publicBound', 'grantedBound'].map((k) => ids[k]).sort();
    expect((await get(sa.key, `/datasets/${ids.bound}`)).status).toBe(404);
    const unbound = await listed(sa.key, { measurement: M });
    expect(unbound.items.map((d) => d.unique_id).sort()).toEqual(before);
    expect(unbound.total).toBe(4);

    const bound = await bind('POST');
    expect(bound.status).toBe(200);
    expect(bound.body).toEqual([expect.objectContaining({ unique_id: sa.user.uniqueId, role: 'editor' })]);

    const read = await get(sa.key, `/datasets/${ids.bound}`);
    expect(read.status).toBe(200);
    expect(read.body.capabilities).toMatchObject({
      can_edit: false,
      can_manage_access: false,
      can_transfer: false,
      can_change_status: false,
    });
    const v2 = await rest(t.url, 'GET', `/datasets/${ids.bound}`, { key: sa.key });
    expect(v2.body.capabilities).toMatchObject({
      can_read: true,
      can_add_files: true,
      can_edit_metadata: true,
      can_update: false,
      can_manage_access: false,
    });
    const after = [...before, ids.bound].sort();
    const list = await listed(sa.key, { measurement: M });
    expect(list.items.map((d) => d.unique_id).sort()).toEqual(after);
    expect(list.total).toBe(5);
    // totals the constant-time counts answer (one dimension) and the dataset tally (two)
    expect((await listed(sa.key, { instrument_mfid: instrument })).total).toBe(4);
    expect((await listed(sa.key, { owner_id: alice.user.uniqueId })).total).toBe(4);
    expect((await listed(sa.key, { owner_id: alice.user.uniqueId, measurement: M })).total).toBe(4);
    expect((await listed(sa.key, { public: 'False', measurement: M })).total).toBe(4);
    expect((await listed(sa.key, { project_id: home.projectId })).total).toBe(2);
    // GraphQL reads it too
    const viaGraphql = await gql(t.url, sa.key, `query($id: ID!) { dataset(id: $id) { uniqueId } }`, {
      id: ids.bound,
    });
    expect(viaGraphql.data).toEqual({ dataset: { uniqueId: ids.bound } });
    // a person with the same grant on the instrument: nothing
    expect((await get(maintainer.key, `/datasets/${ids.bound}`)).status).toBe(404);
    expect((await listed(maintainer.key, { measurement: M })).total).toBe(1);
  });

  test('every facet bucket is what the list counts for it', async () => {
    const param = {
      measurement: 'measurement',
      session: 'session_name',
      owner: 'owner_id',
      data_format: 'data_format',
      instrument: 'instrument_mfid',
      project: 'project_mfid',
    } as const;
    for (const field of Object.keys(param) as (keyof typeof param)[]) {
      const filters: Record<string, string>[] = [
        {},
        { measurement: M },
        { session_name: S.one },
        { session_name: S.two },
      ];
      for (const filter of filters) {
        const res = await get(sa.key, '/datasets/facets', { field, limit: 100, ...filter });
        expect(res.status).toBe(200);
        const buckets = res.body.items as { value: string; count: number }[];
        for (const b of buckets) {
          const { total } = await listed(sa.key, { ...filter, [param[field]]: b.value });
          expect([field, b.value, b.count]).toEqual([field, b.value, total]);
        }
        const { total } = await listed(sa.key, { ...filter, [`${param[field]}_is_null`]: 'False' });
        expect([field, buckets.reduce((s, b) => s + b.count, 0)]).toEqual([field, total]);
      }
    }
    // the all-dimensions answer
    const all = await rest(t.url, 'GET', '/datasets/facets', { key: sa.key, query: { measurement: M } });
    expect(all.status).toBe(200);
    const byInstrument = Object.fromEntries(
      (all.body.instrument as { value: string; count: number }[]).map((b) => [b.value, b.count]),
    );
    expect(byInstrument[instrument]).toBe(4);
    expect(byInstrument[other]).toBeUndefined();
  });

  test('may add to the datasets (a contributor), not change their fields or access', async () => {
    const keyword = unique('kw');
    const added = await rest(t.url, 'POST', `/datasets/${ids.bound}/keywords`, {
      key: sa.key,
      body: { keyword },
    });
    expect(added.status).toBeLessThan(300);
    await rest(t.url, 'POST', `/datasets/${ids.noInstrument}/keywords`, {
      key: alice.key,
      body: { keyword },
    });
    // the keyword tally counts the bound dataset and not alice's other one
    expect((await listed(sa.key, { keyword })).total).toBe(1);
    expect((await listed(alice.key, { keyword })).total).toBe(2);
    const file = await rest(t.url, 'POST', `/datasets/${ids.bound}/files`, {
      key: sa.key,
      body: { filename: 'frame.h5', storage_backend: 'tape' },
    });
    expect(file.status).toBe(201);
    const patch = await rest(t.url, 'PATCH', `/datasets/${ids.bound}`, {
      key: sa.key,
      body: { dataset_name: 'renamed' },
    });
    expect(patch.status).toBe(403);
    const share = await rest(t.url, 'PUT', `/resources/${ids.bound}/access/users/${bob.user.uniqueId}`, {
      key: sa.key,
      body: { permission: 'viewer' },
    });
    expect(share.status).toBe(403);
    expect(
      (
        await rest(t.url, 'POST', `/datasets/${ids.otherInstrument}/keywords`, {
          key: sa.key,
          body: { keyword },
        })
      ).status,
    ).toBe(404);
  });

  test('effective_access and the access listing say contributor', async () => {
    const path = (d: string) => `/users/${sa.user.uniqueId}/datasets/${d}`;
    expect((await get(admin.key, path(ids.bound))).body.effective_access).toBe('contributor');
    expect((await get(admin.key, path(ids.otherInstrument))).body.effective_access).toBe('none');
    const own = await rest(t.url, 'GET', `/resources/${ids.bound}/access`, { key: sa.key });
    expect(own.body.effective_access).toBe('contributor');
  });

  test('a reassignment preview keeps what the binding gives', async () => {
    const reassign = (id: string) =>
      rest(t.url, 'POST', `/resources/${id}/reassign_project`, {
        key: alice.key,
        body: { project_id: target.projectId },
      });
    // viewer through the project, contributor through the instrument: nothing lost
    const kept = await reassign(ids.boundInProject);
    expect(kept.status).toBe(200);
    expect(kept.body.losses).toEqual([]);
    // without the instrument the account's project access is lost
    const lost = await reassign(ids.inProject);
    expect(lost.body.losses).toEqual([
      expect.objectContaining({
        user: expect.objectContaining({ unique_id: sa.user.uniqueId }),
        before: 'viewer',
        after: null,
      }),
    ]);
  });

  test('unbinding takes it away on the next request', async () => {
    expect((await get(sa.key, `/datasets/${ids.bound}`)).status).toBe(200);
    const unbound = await bind('DELETE');
    expect(unbound.status).toBe(200);
    expect(unbound.body).toEqual([]);
    expect((await get(sa.key, `/datasets/${ids.bound}`)).status).toBe(404);
    expect((await listed(sa.key, { measurement: M })).total).toBe(4);
    expect((await listed(sa.key, { instrument_mfid: instrument })).total).toBe(3);
    const path = `/users/${sa.user.uniqueId}/datasets/${ids.bound}`;
    expect((await get(admin.key, path)).body.effective_access).toBe('none');
  });
});
