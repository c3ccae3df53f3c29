import { startTestApp, type TestApp } from '../support/app';
import { buildWorld, type World } from './world';
import { DATASET, INSTRUMENT, SAMPLE, obj, envK, type Check } from './shapes';

/**
 * The wire of the 3.2 client (nano-crucible 3.2.1 and its unreleased work) on `/api/v3`: the
 * calls of ../shared/reference/crucible-client-3.2.md (§3) that the service answers, read the way
 * the client reads them, and the behaviours its own unit tests assert about the server (§5).
 * The 3.1 wire on `/api/v2` stays pinned by legacy-contract.test.ts.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await startTestApp();
  w = await buildWorld(t);
}, 120_000);
afterAll(() => t.close());

const GRANT_ROLES = ['viewer', 'contributor', 'editor', 'admin'];

/** `ResourceCapabilities` of the client: four required flags and an optional named grant role (never owner). */
const CAPABILITIES: Check = (value, where = 'capabilities') => {
  const problems = obj({
    can_edit: 'boolean',
    can_manage_access: 'boolean',
    can_change_status: 'boolean',
    can_transfer: 'boolean',
  })(value, where);
  const role = (value as { max_grant_role?: unknown } | null)?.max_grant_role;
  if (role !== null && role !== undefined && !GRANT_ROLES.includes(role as string))
    problems.push(`${where}.max_grant_role is ${JSON.stringify(role)}`);
  return problems;
};

describe('the /api/v3 mount', () => {
  test('answers the routes of /api/v2', async () => {
    const ready = await w.as3('GET', '/health/ready', { key: null });
    expect(ready.status).toBe(200);
    const ds = await w.as3('GET', `/datasets/${w.dataset}`);
    expect(ds.status).toBe(200);
    expect(DATASET(ds.body)).toEqual([]);
    const list = await w.as3('GET', '/datasets', { query: { limit: 5 } });
    expect(list.status).toBe(200);
    expect(envK(DATASET)(list.body)).toEqual([]);
    expect((await w.as3('GET', '/openapi.json', { key: null })).status).toBe(200);
    expect((await w.as3('GET', '/no-such-route')).status).toBe(404);
    expect((await w.as3('GET', '/datasets', { key: null })).status).toBe(401);
  });

  test('the OpenAPI document names both prefixes', async () => {
    const doc = await w.as3('GET', '/openapi.json', { key: null });
    const urls = (doc.body.servers as { url: string }[]).map((s) => s.url);
    expect(urls).toEqual(expect.arrayContaining(['/api/v2', '/api/v3']));
  });
});

describe('capabilities the client requires', () => {
  test('on a dataset, a sample and an instrument read on /api/v3', async () => {
    const ds = await w.as3('GET', `/datasets/${w.dataset}`);
    expect(CAPABILITIES(ds.body.capabilities)).toEqual([]);
    // the owner: every right, granting up to admin; datasets have no status
    expect(ds.body.capabilities).toMatchObject({
      can_edit: true,
      can_manage_access: true,
      can_change_status: false,
      can_transfer: true,
      max_grant_role: 'admin',
    });
    const sample = await w.as3('GET', `/samples/${w.sample}`);
    expect(SAMPLE(sample.body)).toEqual([]);
    expect(CAPABILITIES(sample.body.capabilities)).toEqual([]);
    expect(sample.body.capabilities.can_change_status).toBe(false);
    const instrument = await w.as3('GET', `/instruments/${w.instrumentId}`);
    expect(INSTRUMENT(instrument.body)).toEqual([]);
    expect(CAPABILITIES(instrument.body.capabilities)).toEqual([]);
    const resource = await w.as3('GET', `/resources/${w.dataset}`);
    expect(CAPABILITIES(resource.body.capabilities)).toEqual([]);
  });

  test('computed by the same policy as the /api/v2 keys', async () => {
    const outsider = await w.newUser();
    const inst = await w.as3('GET', `/instruments/${w.instrumentId}`, { key: outsider.key });
    expect(inst.body.capabilities).toMatchObject({
      can_edit: false,
      can_manage_access: false,
      can_change_status: false,
      can_transfer: false,
      max_grant_role: null,
    });
    const v2 = await w.as('GET', `/datasets/${w.dataset}`);
    const v3 = await w.as3('GET', `/datasets/${w.dataset}`);
    expect(v3.body.capabilities.can_edit).toBe(v2.body.capabilities.can_update);
    expect(v3.body.capabilities.can_transfer).toBe(v2.body.capabilities.can_transfer_ownership);
  });

  test('writes answer them too', async () => {
    const created = await w.as3('POST', '/samples', {
      body: { sample_name: 'v3 sample', project_id: w.projectId, sample_type: 'test' },
    });
    expect(created.status).toBe(201);
    expect(CAPABILITIES(created.body.capabilities)).toEqual([]);
  });

  test('/api/v2 keeps its keys', async () => {
    const ds = await w.as('GET', `/datasets/${w.dataset}`);
    expect(ds.body.capabilities).not.toHaveProperty('can_edit');
    expect(ds.body.capabilities).not.toHaveProperty('max_grant_role');
    expect(ds.body.capabilities).toHaveProperty('can_update');
  });
});

describe('strict query contracts (test_filter_validation: unknown parameters are a 422)', () => {
  test.each([2, 3] as const)('an unknown parameter is a 422 naming it on /api/v%s', async (version) => {
    for (const [path, name] of [
      ['/datasets', 'bogus_filter'],
      ['/samples', 'colour'],
      ['/projects', 'nope'],
      [`/datasets/${w.dataset}`, 'include_everything'],
      ['/instruments', 'sort_by'],
    ] as const) {
      const r = await w.as(path === '/projects' ? 'GET' : 'GET', path, { version, query: { [name]: 'x' } });
      expect(r.status).toBe(422);
      expect(r.body.fields).toEqual([expect.objectContaining({ field: name })]);
    }
  });

  test('what the 3.1 client sends stays accepted on /api/v2', async () => {
    // datasets.list with an offset (keyset lists ignore it), add_access_group with read=True,
    // projects.list(orcid=…, include_metadata)
    expect((await w.as('GET', '/datasets', { query: { limit: 1000, offset: 5 } })).status).toBe(200);
    expect(
      (
        await w.as('GET', `/users/${w.user.user.uniqueId}/projects`, {
          query: { include_metadata: 'True', limit: 1000 },
        })
      ).status,
    ).toBe(200);
  });

  test('projects.get(slug): exact, case-insensitive, with an exact total', async () => {
    const r = await w.as3('GET', '/projects', { query: { project_id: w.projectId.toUpperCase(), limit: 2 } });
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(1);
    expect(r.body.items[0].project_id).toBe(w.projectId);
    // the role of the caller (a member), and a prefix is no match
    expect(r.body.items[0].role).toBe('contributor');
    const none = await w.as3('GET', '/projects', {
      query: { project_id: w.projectId.slice(0, -1), limit: 2 },
    });
    expect(none.body.total).toBe(0);
    const wild = await w.as3('GET', '/projects', { query: { project_id: '%', limit: 2 } });
    expect(wild.body.total).toBe(0);
  });

  test('instruments.get(slug): exact, case-insensitive, with an exact total', async () => {
    const slug = `${w.tag}-tem`;
    const created = await w.asAdmin3('POST', '/instruments', {
      body: { instrument_name: `${w.tag} TEM`, instrument_id: slug, owner: w.user.user.uniqueId },
    });
    expect(created.status).toBe(201);
    const r = await w.as3('GET', '/instruments', {
      query: { instrument_id: slug.toUpperCase(), limit: 2, include_owner: 'True' },
    });
    expect(r.body.total).toBe(1);
    expect(r.body.items[0].unique_id).toBe(created.body.unique_id);
    expect(r.body.items[0].role).toBe('owner');
    expect(
      (await w.as3('GET', '/instruments', { query: { instrument_id: `${slug}x`, limit: 2 } })).body.total,
    ).toBe(0);
    const mine = await w.as3('GET', '/instruments', { query: { affiliation: 'owner', sort: 'name' } });
    expect(
      mine.body.items.every((i: { owner_orcid: string }) => i.owner_orcid === w.user.user.uniqueId),
    ).toBe(true);
    expect(mine.body.total).toBeGreaterThanOrEqual(2);
  });
});

describe('lists as the client asks (test_list_sort_filters, test_access_selectors)', () => {
  test('direction without sort is a 422; sort orders the page', async () => {
    const bad = await w.as3('GET', '/datasets', { query: { direction: 'asc' } });
    expect(bad.status).toBe(422);
    expect(bad.body.fields[0].field).toBe('direction');
    expect((await w.as3('GET', '/datasets', { query: { sort: 'bogus' } })).status).toBe(422);
    const asc = await w.as3('GET', '/datasets', {
      query: { sort: 'created', direction: 'asc', project_id: w.projectId, limit: 2 },
    });
    expect(asc.status).toBe(200);
    const times = asc.body.items.map((d: { creation_time: string }) => d.creation_time);
    expect([...times].sort()).toEqual(times);
    expect(asc.body.next_cursor).toEqual(expect.any(String));
    const next = await w.as3('GET', '/datasets', {
      query: {
        sort: 'created',
        direction: 'asc',
        project_id: w.projectId,
        limit: 2,
        cursor: asc.body.next_cursor,
      },
    });
    expect(next.status).toBe(200);
    expect(next.body.items[0].creation_time >= times[1]).toBe(true);
    const ids = [...asc.body.items, ...next.body.items].map((d: { unique_id: string }) => d.unique_id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('visibility, owner_id, affiliation, time ranges and *_is_null filter datasets', async () => {
    const base = { project_id: w.projectId, include_total: 'False', limit: 1000 };
    const all = await w.as3('GET', '/datasets', { query: base });
    expect(all.body.total).toBeGreaterThan(0);
    const priv = await w.as3('GET', '/datasets', { query: { ...base, visibility: 'private' } });
    expect(priv.body.total).toBe(all.body.total);
    expect((await w.as3('GET', '/datasets', { query: { ...base, visibility: 'public' } })).body.total).toBe(
      0,
    );
    const owned = await w.as3('GET', '/datasets', { query: { ...base, owner_id: w.user.user.uniqueId } });
    expect(owned.body.total).toBe(all.body.total);
    const mine = await w.as3('GET', '/datasets', { query: { ...base, affiliation: 'owner' } });
    expect(mine.body.total).toBe(all.body.total);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expect(
      (await w.as3('GET', '/datasets', { query: { ...base, creation_time_gte: future } })).body.total,
    ).toBe(0);
    expect(
      (await w.as3('GET', '/datasets', { query: { ...base, modification_time_lte: future } })).body.total,
    ).toBe(all.body.total);
    expect(
      (await w.as3('GET', '/datasets', { query: { ...base, creation_time_gte: 'yesterday' } })).status,
    ).toBe(422);
    // every world dataset has a measurement and no session
    expect(
      (await w.as3('GET', '/datasets', { query: { ...base, measurement_is_null: 'True' } })).body.total,
    ).toBe(0);
    expect(
      (await w.as3('GET', '/datasets', { query: { ...base, session_name_is_null: 'True' } })).body.total,
    ).toBe(all.body.total);
  });

  test('samples take project_scope, description and the same filters', async () => {
    const r = await w.as3('GET', '/samples', {
      query: {
        project_id: w.projectId,
        project_scope: 'all',
        sample_type_is_null: 'False',
        visibility: 'all',
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.total).toBeGreaterThanOrEqual(3);
    const shared = await w.as3('GET', '/samples', {
      query: { project_id: w.projectId, project_scope: 'shared' },
    });
    expect(shared.body.total).toBe(0);
  });

  test('relationship_type filters children and parents (test_link_relationship_type)', async () => {
    const parent = await w.newDataset();
    const child = await w.newDataset();
    expect(
      (
        await w.as3('POST', `/datasets/${parent}/children/${child}`, {
          query: { relationship_type: 'is_part_of' },
        })
      ).status,
    ).toBeLessThan(300);
    const typed = await w.as3('GET', `/datasets/${parent}/children`, {
      query: { relationship_type: 'is_part_of' },
    });
    expect(typed.body.items.map((d: { unique_id: string }) => d.unique_id)).toEqual([child]);
    const other = await w.as3('GET', `/datasets/${parent}/children`, {
      query: { relationship_type: 'is_derived_from' },
    });
    expect(other.body.total).toBe(0);
    const parents = await w.as3('GET', `/datasets/${child}/parents`, {
      query: { relationship_type: 'is_part_of' },
    });
    expect(parents.body.total).toBe(1);
  });

  test('include_members and member filters on projects', async () => {
    const p = await w.asAdmin3('GET', `/projects/${w.projectId}`, { query: { include_members: 'True' } });
    expect(p.status).toBe(200);
    expect(p.body.members.map((m: { unique_id: string }) => m.unique_id)).toContain(w.user.user.uniqueId);
    const byMember = await w.asAdmin3('GET', '/projects', {
      query: {
        member_ref: w.user.user.uniqueId,
        member_role: 'contributor',
        sort: 'project_id',
        direction: 'desc',
      },
    });
    expect(byMember.body.items.map((x: { project_id: string }) => x.project_id)).toContain(w.projectId);
    // an outsider learns nothing about others' memberships
    const outsider = await w.newUser();
    const hidden = await w.as3('GET', '/projects', {
      key: outsider.key,
      query: { member_ref: w.user.user.uniqueId },
    });
    expect(hidden.body.total).toBe(0);
  });
});
