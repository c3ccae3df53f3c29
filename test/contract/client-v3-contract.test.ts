import { startTestApp, type TestApp } from '../support/app';
import { gql } from '../support/http';
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

/** The client's `AccessGrant`: a principal of its kinds with one of its levels (slug, display_name optional). */
const PRINCIPAL_TYPES = ['user', 'service_account', 'project', 'instrument', 'public', 'system', 'unknown'];
const ACCESS_GRANT: Check = (value, where = 'grant') => {
  const problems = obj({ principal_id: 'string', slug: 'string?', display_name: 'string?' })(value, where);
  const g = value as { principal_type?: unknown; permission?: unknown };
  if (!PRINCIPAL_TYPES.includes(g.principal_type as string))
    problems.push(`${where}.principal_type is ${JSON.stringify(g.principal_type)}`);
  if (![...GRANT_ROLES, 'owner'].includes(g.permission as string))
    problems.push(`${where}.permission is ${JSON.stringify(g.permission)}`);
  return problems;
};
type Entry = { principal_type: string; principal_id: string; permission: string; slug?: string | null };

describe('access routes as the client calls them (test_permissions)', () => {
  test('list_access: a list of AccessGrant, the owner first; set_access answers one', async () => {
    const ds = await w.newDataset();
    const set = await w.as3('PUT', `/resources/${ds}/access/projects/${w.otherProject}`, {
      body: { permission: 'editor' },
    });
    expect(set.status).toBe(200);
    expect(ACCESS_GRANT(set.body)).toEqual([]);
    expect(set.body).toMatchObject({ principal_type: 'project', permission: 'editor', slug: w.otherProject });
    // a named group is a principal the client has no kind for
    const group = await w.as3('PUT', `/resources/${ds}/access/groups/${w.group}`, {
      body: { permission: 'viewer' },
    });
    expect(group.body).toMatchObject({ principal_type: 'unknown', principal_id: w.group, slug: w.group });
    const list = await w.as3('GET', `/resources/${ds}/access`);
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect((list.body as unknown[]).flatMap((g, i) => ACCESS_GRANT(g, `[${i}]`))).toEqual([]);
    const entries = list.body as Entry[];
    expect(entries[0]).toMatchObject({
      principal_type: 'user',
      principal_id: w.user.user.uniqueId,
      permission: 'owner',
    });
    expect(entries.map((e) => e.permission).sort()).toEqual(['editor', 'owner', 'viewer']);
    // /api/v2 keeps the object
    const v2 = await w.as('GET', `/resources/${ds}/access`);
    expect(v2.body).toMatchObject({ unique_id: ds, grants_complete: true, effective_access: 'owner' });
    expect(v2.body.grants.map((g: Entry) => g.principal_type).sort()).toEqual(['group', 'project']);
  });

  test('a reader who may not manage lists only what reaches them; an unreadable record is 404', async () => {
    const ds = await w.newDataset();
    const reader = await w.newUser();
    const other = await w.newUser();
    for (const u of [reader, other]) {
      await w.as3('PUT', `/resources/${ds}/access/users/${u.user.uniqueId}`, {
        body: { permission: 'viewer' },
      });
    }
    const seen = await w.as3('GET', `/resources/${ds}/access`, { key: reader.key });
    expect((seen.body as Entry[]).map((e) => e.principal_id)).toEqual([
      w.user.user.uniqueId,
      reader.user.uniqueId,
    ]);
    const stranger = await w.newUser();
    const hidden = await w.as3('GET', `/resources/${ds}/access`, { key: stranger.key });
    expect([hidden.status, hidden.body.detail]).toEqual([404, `Resource ${ds} not found`]);
  });

  test('set_public / set_private: PUT and DELETE …/access/public with no body, idempotent', async () => {
    const ds = await w.newDataset();
    for (let i = 0; i < 2; i++) {
      const put = await w.as3('PUT', `/resources/${ds}/access/public`);
      expect(put.status).toBe(200);
      expect(ACCESS_GRANT(put.body)).toEqual([]);
      expect(put.body).toMatchObject({
        principal_id: 'public',
        principal_type: 'public',
        permission: 'viewer',
      });
    }
    expect((await w.as3('GET', `/datasets/${ds}`)).body.public).toBe(true);
    const list = await w.as3('GET', `/resources/${ds}/access`);
    expect((list.body as Entry[]).at(-1)).toMatchObject({ principal_type: 'public', permission: 'viewer' });
    for (let i = 0; i < 2; i++) {
      const del = await w.as3('DELETE', `/resources/${ds}/access/public`);
      expect(del.status).toBe(200);
      expect(del.body.public).toBe(false);
    }
    expect((await w.as3('GET', `/datasets/${ds}`)).body.public).toBe(false);
    // samples too (the client's samples.update(public=) goes here)
    expect((await w.as3('PUT', `/resources/${w.sample}/access/public`)).status).toBe(200);
    expect((await w.as3('DELETE', `/resources/${w.sample}/access/public`)).status).toBe(200);
  });

  test('public/private: 404 for an unreadable record, 403 without admin, 422 for a project; nothing changes', async () => {
    const ds = await w.newDataset();
    const stranger = await w.newUser();
    const missing = await w.as3('PUT', `/resources/${ds}/access/public`, { key: stranger.key });
    expect([missing.status, missing.body.detail]).toEqual([404, `Resource ${ds} not found`]);
    const editor = await w.newUser();
    await w.as3('PUT', `/resources/${ds}/access/users/${editor.user.uniqueId}`, {
      body: { permission: 'editor' },
    });
    expect((await w.as3('PUT', `/resources/${ds}/access/public`, { key: editor.key })).status).toBe(403);
    expect((await w.as3('DELETE', `/resources/${ds}/access/public`, { key: editor.key })).status).toBe(403);
    expect((await w.as3('GET', `/datasets/${ds}`)).body.public).toBe(false);
    const project = await w.asAdmin3('PUT', `/resources/${w.projectId}/access/public`);
    expect(project.status).toBe(422);
    expect(project.body.fields[0].field).toBe('resource_type');
  });

  test('transfer_ownership: ?confirm=False previews, ?confirm=True applies; {resource_id, previous_owner, new_owner}', async () => {
    const ds = await w.newDataset();
    const heir = await w.newUser();
    const preview = await w.as3('POST', `/resources/${ds}/transfer_ownership`, {
      query: { confirm: 'False' },
      body: { new_owner: heir.user.username },
    });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      resource_id: ds,
      applied: false,
      previous_owner: { unique_id: w.user.user.uniqueId },
      new_owner: { unique_id: heir.user.uniqueId, username: heir.user.username },
    });
    expect((await w.as3('GET', `/datasets/${ds}`)).body.owner_orcid).toBe(w.user.user.uniqueId);
    const applied = await w.as3('POST', `/resources/${ds}/transfer_ownership`, {
      query: { confirm: 'True' },
      body: { new_owner: heir.user.username },
    });
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({
      resource_id: ds,
      applied: true,
      previous_owner: { unique_id: w.user.user.uniqueId },
      new_owner: { unique_id: heir.user.uniqueId },
    });
    expect((await w.as3('GET', `/datasets/${ds}`, { key: heir.key })).body.owner_orcid).toBe(
      heir.user.uniqueId,
    );
  });

  test('reassign_project: POST /resources/{id}/project with ?confirm, by slug or MFID', async () => {
    const target = `${w.tag}-move`;
    const made = await w.asAdmin3('POST', '/projects', {
      body: { project_id: target, organization: 'Test', title: 'Move' },
    });
    expect(made.status).toBe(201);
    expect(
      (
        await w.asAdmin3('POST', `/projects/${target}/users/${w.user.user.uniqueId}`, {
          query: { role: 'contributor' },
        })
      ).status,
    ).toBeLessThan(300);
    const ds = await w.newDataset();
    const preview = await w.as3('POST', `/resources/${ds}/project`, {
      query: { confirm: 'False' },
      body: { project_id: target },
    });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      resource_id: ds,
      applied: false,
      previous_project_id: w.projectId,
      new_project_id: target,
      new_project_mfid: made.body.unique_id,
    });
    expect((await w.as3('GET', `/datasets/${ds}`)).body.project_id).toBe(w.projectId);
    const applied = await w.as3('POST', `/resources/${ds}/project`, {
      query: { confirm: 'True' },
      body: { project_mfid: made.body.unique_id },
    });
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({
      resource_id: ds,
      resource_mfid: ds,
      applied: true,
      previous_project_id: w.projectId,
      new_project_id: target,
    });
    expect((await w.as3('GET', `/datasets/${ds}`)).body.project_id).toBe(target);
    // bad input changes nothing: both selectors disagreeing, an unknown project, a project record
    const bad = await w.as3('POST', `/resources/${ds}/project`, {
      query: { confirm: 'True' },
      body: { project_id: w.projectId, project_mfid: made.body.unique_id },
    });
    expect(bad.status).toBe(422);
    expect(
      (await w.as3('POST', `/resources/${ds}/project`, { body: { project_id: `${w.tag}-none` } })).status,
    ).toBe(422);
    expect((await w.as3('GET', `/datasets/${ds}`)).body.project_id).toBe(target);
  });

  test('assign_instrument: PUT /datasets/{id}/instrument by slug or MFID', async () => {
    const make = async (suffix: string) =>
      (
        await w.asAdmin3('POST', '/instruments', {
          body: {
            instrument_name: `${w.tag} ${suffix}`,
            instrument_id: `${w.tag}-${suffix}`,
            owner: w.admin.user.uniqueId,
          },
        })
      ).body as { unique_id: string; instrument_id: string; instrument_name: string };
    const [xrd, sem] = [await make('xrd'), await make('sem')];
    const ds = await w.newDataset();
    const first = await w.as3('PUT', `/datasets/${ds}/instrument`, {
      body: { instrument_id: xrd.instrument_id.toUpperCase() },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      dataset_mfid: ds,
      previous_instrument: null,
      previous_instrument_name: null,
      instrument: {
        unique_id: xrd.unique_id,
        instrument_id: xrd.instrument_id,
        instrument_name: xrd.instrument_name,
      },
    });
    const second = await w.as3('PUT', `/datasets/${ds}/instrument`, {
      body: { instrument_mfid: sem.unique_id, instrument_id: sem.instrument_id },
    });
    expect(second.body).toMatchObject({
      previous_instrument: { unique_id: xrd.unique_id },
      previous_instrument_name: xrd.instrument_name,
      instrument: { unique_id: sem.unique_id },
    });
    const read = await w.as3('GET', `/datasets/${ds}`);
    expect(read.body).toMatchObject({ instrument_mfid: sem.unique_id, instrument_name: sem.instrument_name });
    // ordinary updates still may not change it
    expect(
      (await w.as3('PATCH', `/datasets/${ds}`, { body: { instrument_mfid: xrd.unique_id } })).status,
    ).toBe(409);
    // bad input: nothing named, a blank, two instruments, an unknown one (404 like a missing one)
    for (const body of [
      {},
      { instrument_id: ' ' },
      { instrument_id: xrd.instrument_id, instrument_mfid: sem.unique_id },
      { colour: 'x' },
    ]) {
      expect((await w.as3('PUT', `/datasets/${ds}/instrument`, { body })).status).toBe(422);
    }
    const unknown = await w.as3('PUT', `/datasets/${ds}/instrument`, {
      body: { instrument_id: `${w.tag}-none` },
    });
    expect([unknown.status, unknown.body.detail]).toEqual([404, `Instrument ${w.tag}-none not found`]);
    // a viewer or an editor may not (bound service accounts reach the datasets of an instrument:
    // assigning one shares the dataset, which needs admin); a stranger does not see the dataset
    for (const permission of ['viewer', 'editor']) {
      const holder = await w.newUser();
      await w.as3('PUT', `/resources/${ds}/access/users/${holder.user.uniqueId}`, { body: { permission } });
      expect(
        (
          await w.as3('PUT', `/datasets/${ds}/instrument`, {
            key: holder.key,
            body: { instrument_mfid: xrd.unique_id },
          })
        ).status,
      ).toBe(403);
    }
    const stranger = await w.newUser();
    const hidden = await w.as3('PUT', `/datasets/${ds}/instrument`, {
      key: stranger.key,
      body: { instrument_mfid: xrd.unique_id },
    });
    expect([hidden.status, hidden.body.detail]).toEqual([404, `Dataset ${ds} not found`]);
    expect((await w.as3('GET', `/datasets/${ds}`)).body.instrument_mfid).toBe(sem.unique_id);
    // GraphQL assigns the same way
    const gql = await fetch(`${w.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${w.user.key}` },
      body: JSON.stringify({
        query:
          'mutation($id: ID!, $i: String) { setDatasetInstrument(id: $id, instrumentId: $i) { instrument { uniqueId } } }',
        variables: { id: ds, i: xrd.instrument_id },
      }),
    });
    expect(((await gql.json()) as { data: unknown }).data).toEqual({
      setDatasetInstrument: { instrument: { uniqueId: xrd.unique_id } },
    });
  });

  test('check_dataset_access: {resource_mfid, user_id, effective_access}', async () => {
    const path = (u: string) => `/users/${u}/datasets/${w.dataset}`;
    const owner = await w.asAdmin3('GET', path(w.user.user.uniqueId));
    expect(owner.status).toBe(200);
    expect(owner.body).toMatchObject({
      resource_mfid: w.dataset,
      user_id: w.user.user.uniqueId,
      effective_access: 'owner',
    });
    const outsider = await w.newUser();
    expect((await w.asAdmin3('GET', path(outsider.user.username!))).body).toMatchObject({
      user_id: outsider.user.uniqueId,
      effective_access: 'none',
      read: false,
    });
    expect((await w.asAdmin3('GET', path(w.admin.user.uniqueId))).body.effective_access).toBe(
      'platform_admin',
    );
    // only platform administrators inspect access
    expect((await w.as3('GET', path(w.user.user.uniqueId))).status).toBe(403);
  });
});

describe('add_file: POST /files/{id}/ingest with status (files.request_ingestion, _skip_ingestion)', () => {
  test('status=requested queues an ingestion as before', async () => {
    const r = await w.as3('POST', `/files/${w.file}/ingest`, { query: { status: 'requested' } });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('requested');
  });

  test('status=not_requested records a final request, never queued, and the client reads id and status', async () => {
    const before = await w.as3('GET', '/ingestion_requests', { query: { file_id: w.file } });
    const r = await w.as3('POST', `/files/${w.file}/ingest`, { query: { status: 'not_requested' } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ id: expect.any(Number), status: 'not_requested', file_mfid: w.file });
    expect(r.body.time_completed).toEqual(expect.any(String));
    const after = await w.as3('GET', '/ingestion_requests', { query: { file_id: w.file } });
    expect(after.body.total).toBe(before.body.total + 1);
    // final: a worker cannot move it, and cannot set the status itself
    const moved = await w.asAdmin3('PATCH', `/ingestion_requests/${r.body.id}`, {
      body: { status: 'started' },
    });
    expect(moved.status).toBe(409);
    const waiting = await w.as3('POST', `/files/${w.file}/ingest`, { query: { status: 'requested' } });
    const bySelf = await w.asAdmin3('PATCH', `/ingestion_requests/${waiting.body.id}`, {
      body: { status: 'not_requested' },
    });
    expect(bySelf.status).toBe(422);
  });

  test('a remote file may skip ingestion (requesting one stays a 409)', async () => {
    const ds = await w.newDataset();
    const remote = await w.as3('POST', `/datasets/${ds}/files`, {
      body: { filename: 'far.h5', storage_backend: 'local', access_note: 'on the beamline disk' },
    });
    expect(remote.status).toBe(201);
    const skipped = await w.as3('POST', `/files/${remote.body.mfid}/ingest`, {
      query: { status: 'not_requested' },
    });
    expect(skipped.status).toBe(201);
    expect(skipped.body.status).toBe('not_requested');
    const asked = await w.as3('POST', `/files/${remote.body.mfid}/ingest`, {
      query: { status: 'requested' },
    });
    expect(asked.status).toBe(409);
  });

  test('bad input is a clear 4xx: another status, an ingestor with not_requested, a stranger', async () => {
    const bogus = await w.as3('POST', `/files/${w.file}/ingest`, { query: { status: 'skipped' } });
    expect(bogus.status).toBe(422);
    expect(bogus.body.fields[0].field).toBe('status');
    const both = await w.as3('POST', `/files/${w.file}/ingest`, {
      query: { status: 'not_requested', ingestion_class: 'csv' },
    });
    expect(both.status).toBe(422);
    expect(both.body.fields[0].field).toBe('ingestion_class');
    const outsider = await w.newUser();
    const hidden = await w.as3('POST', `/files/${w.file}/ingest`, {
      key: outsider.key,
      query: { status: 'not_requested' },
    });
    expect(hidden.status).toBe(404);
  });
});

describe('instrument status (test_instrument_contract: set_status, list and search by status)', () => {
  test('POST /instruments/{id}/status?status= answers the instrument; lists default to active on /api/v3', async () => {
    const slug = `${w.tag}-status`;
    const created = await w.asAdmin3('POST', '/instruments', {
      body: { instrument_name: `${w.tag} status scope`, instrument_id: slug, owner: w.user.user.uniqueId },
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('active');
    const id = created.body.unique_id as string;
    const set = await w.as3('POST', `/instruments/${id}/status`, { query: { status: 'maintenance' } });
    expect(set.status).toBe(200);
    expect(INSTRUMENT(set.body)).toEqual([]);
    expect(set.body.status).toBe('maintenance');
    expect(CAPABILITIES(set.body.capabilities)).toEqual([]);
    expect(set.body.capabilities.can_change_status).toBe(true);
    const ids = (r: { body: { items: { unique_id: string }[] } }) => r.body.items.map((i) => i.unique_id);
    // no status on /api/v3: active only, except for an exact lookup
    expect(ids(await w.as3('GET', '/instruments', { query: { limit: 1000 } }))).not.toContain(id);
    expect(
      ids(await w.as3('GET', '/instruments', { query: { status: 'maintenance', limit: 1000 } })),
    ).toContain(id);
    const lookup = await w.as3('GET', '/instruments', { query: { instrument_id: slug, limit: 2 } });
    expect(lookup.body.total).toBe(1);
    // /api/v2 keeps listing every status
    expect(ids(await w.as('GET', '/instruments', { query: { limit: 1000 } }))).toContain(id);
    const found = await w.as3('GET', '/instruments/search', {
      query: { q: 'status scope', limit: 4, include_owner: 'True', status: 'maintenance' },
    });
    expect(found.status).toBe(200);
    expect(found.body.map((i: { unique_id: string }) => i.unique_id)).toEqual([id]);
    const none = await w.as3('GET', '/instruments/search', {
      query: { q: 'status scope', status: 'active' },
    });
    expect(none.body).toEqual([]);
    const mine = await w.as3('GET', '/instruments/search', {
      query: { q: 'status scope', affiliation: 'owner' },
    });
    expect(mine.body.map((i: { unique_id: string }) => i.unique_id)).toEqual([id]);
    // PATCH takes it too; null sets it back to active
    const back = await w.as3('PATCH', `/instruments/${id}`, { body: { status: null } });
    expect(back.body.status).toBe('active');
  });

  test('bad status, a reader who may not edit, GraphQL', async () => {
    const bad = await w.as3('POST', `/instruments/${w.instrumentId}/status`, {
      query: { status: 'retired' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.fields[0].field).toBe('status');
    expect((await w.as3('POST', `/instruments/${w.instrumentId}/status`)).status).toBe(422);
    expect((await w.as3('GET', '/instruments', { query: { status: 'retired' } })).status).toBe(422);
    expect(
      (await w.as3('PATCH', `/instruments/${w.instrumentId}`, { body: { status: 'broken' } })).status,
    ).toBe(422);
    const outsider = await w.newUser();
    const refused = await w.as3('POST', `/instruments/${w.instrumentId}/status`, {
      key: outsider.key,
      query: { status: 'maintenance' },
    });
    expect(refused.status).toBe(403);
    const missing = await w.as3('POST', `/instruments/0000000000000000000000000a/status`, {
      query: { status: 'active' },
    });
    expect(missing.status).toBe(404);
    const set = await gql(
      w.url,
      w.user.key,
      'mutation($id: String!) { setInstrumentStatus(id: $id, status: decommissioned) { status } }',
      { id: w.instrumentId },
    );
    expect(set.data.setInstrumentStatus.status).toBe('decommissioned');
    const listed = await gql(
      w.url,
      w.user.key,
      '{ instruments(status: [decommissioned], first: 100) { edges { node { uniqueId } } } }',
    );
    expect(
      listed.data.instruments.edges.map((e: { node: { uniqueId: string } }) => e.node.uniqueId),
    ).toContain(w.instrumentId);
    const wrong = await gql(w.url, w.user.key, '{ instruments(status: [retired]) { totalCount } }');
    expect(wrong.errors?.length).toBeGreaterThan(0);
    await w.as3('POST', `/instruments/${w.instrumentId}/status`, { query: { status: 'active' } });
  });
});

describe('instrument service accounts and maintainers (bind/unbind/list_service_accounts, add_user)', () => {
  const MEMBER = obj({ unique_id: 'string', role: 'string', is_service_account: 'boolean' });

  test('bind, list and unbind a service account: lists of ProjectMember with role', async () => {
    const path = `/instruments/${w.instrumentId}/service_accounts`;
    const bound = await w.as3('POST', `${path}/${w.serviceAccount}`);
    expect(bound.status).toBe(200);
    expect(bound.body.map((m: unknown) => MEMBER(m))).toEqual([[]]);
    expect(bound.body[0]).toMatchObject({
      unique_id: w.serviceAccount,
      role: 'editor',
      is_service_account: true,
    });
    // binding again changes nothing
    expect((await w.as3('POST', `${path}/${w.serviceAccount}`)).body).toEqual(bound.body);
    const listed = await w.as3('GET', path);
    expect(listed.body).toEqual(bound.body);
    // the binding is a grant of the instrument: its access list shows it
    const access = await w.as3('GET', `/resources/${w.instrumentId}/access`);
    expect(JSON.stringify(access.body)).toContain(w.serviceAccount);
    const unbound = await w.as3('DELETE', `${path}/${w.serviceAccount}`);
    expect(unbound.status).toBe(200);
    expect(unbound.body).toEqual([]);
    expect((await w.as3('DELETE', `${path}/${w.serviceAccount}`)).status).toBe(404);
  });

  test('maintainers: an editor changes the status but may not bind; a person is no service account', async () => {
    const maintainer = await w.newUser();
    const granted = await w.as3(
      'PUT',
      `/resources/${w.instrumentId}/access/users/${maintainer.user.uniqueId}`,
      {
        body: { permission: 'editor' },
      },
    );
    expect(granted.status).toBeLessThan(300);
    const members = await w.as3('GET', `/instruments/${w.instrumentId}`, {
      query: { include_members: 'True' },
    });
    expect(members.body.members.map((m: { principal_id: string }) => m.principal_id)).toContain(
      maintainer.user.uniqueId,
    );
    const mine = await w.as3('GET', '/instruments', {
      key: maintainer.key,
      query: { affiliation: 'maintainer' },
    });
    expect(mine.body.items.map((i: { unique_id: string }) => i.unique_id)).toContain(w.instrumentId);
    const status = await w.as3('POST', `/instruments/${w.instrumentId}/status`, {
      key: maintainer.key,
      query: { status: 'active' },
    });
    expect(status.status).toBe(200);
    const path = `/instruments/${w.instrumentId}/service_accounts`;
    expect((await w.as3('POST', `${path}/${w.serviceAccount}`, { key: maintainer.key })).status).toBe(403);
    expect((await w.as3('GET', path, { key: maintainer.key })).status).toBe(403);
    const person = await w.as3('POST', `${path}/${maintainer.user.uniqueId}`);
    expect(person.status).toBe(422);
    expect(person.body.fields[0].field).toBe('sa_unique_id');
    expect((await w.as3('POST', `${path}/0000000000000000000000000a`)).status).toBe(404);
    expect((await w.as3('GET', `/instruments/0000000000000000000000000a/service_accounts`)).status).toBe(404);
    await w.as3('DELETE', `/resources/${w.instrumentId}/access/users/${maintainer.user.uniqueId}`);
  });
});

describe('deletion requests and audit (test_deletion_filters: scopes, sorts, project_mfid, requester/reviewer objects)', () => {
  const REQUEST = obj({ id: 'number', resource_id: 'string', status: 'string', requester: 'object' });
  const projectMfid = async () =>
    (await w.asAdmin3('GET', `/projects/${w.projectId}`)).body.unique_id as string;

  test('a member lists their own requests, with the keys the client reads; reviewable is empty for them', async () => {
    const mine = await w.as3('GET', '/deletion_requests', { query: { status: 'pending', limit: 1000 } });
    expect(mine.status).toBe(200);
    const item = mine.body.items.find((r: { id: number }) => r.id === w.deletionRequest);
    expect(REQUEST(item)).toEqual([]);
    expect(item).toMatchObject({
      project_id: w.projectId,
      project_mfid: await projectMfid(),
      requester_id: w.user.user.uniqueId,
      requester: { unique_id: w.user.user.uniqueId },
      reviewer: null,
      capabilities: { can_review: false },
    });
    expect(
      mine.body.items.every((r: { requester_id: string }) => r.requester_id === w.user.user.uniqueId),
    ).toBe(true);
    const submitted = await w.as3('GET', '/deletion_requests', { query: { scope: 'submitted' } });
    expect(submitted.body.total).toBe(mine.body.total + 1); // plus the approved one
    const reviewable = await w.as3('GET', '/deletion_requests', { query: { scope: 'reviewable' } });
    expect(reviewable.body.total).toBe(0);
    // another user sees none of them
    const outsider = await w.newUser();
    expect((await w.as3('GET', '/deletion_requests', { key: outsider.key })).body.total).toBe(0);
  });

  test('an administrator reviews: scope reviewable, sorts, directions, project_mfid', async () => {
    const reviewable = await w.asAdmin3('GET', '/deletion_requests', {
      query: { scope: 'reviewable', sort: 'request_time', direction: 'asc', limit: 1000 },
    });
    expect(reviewable.status).toBe(200);
    const items = reviewable.body.items as { status: string; request_time: string; capabilities: object }[];
    expect(items.every((r) => r.status === 'pending')).toBe(true);
    expect(items.map((r) => r.request_time)).toEqual([...items.map((r) => r.request_time)].sort());
    expect(items[0].capabilities).toEqual({ can_review: true });
    for (const sort of ['resource_name', 'project_id', 'requester_name', 'status']) {
      const r = await w.asAdmin3('GET', '/deletion_requests', { query: { sort, direction: 'desc' } });
      expect(r.status).toBe(200);
    }
    const inProject = await w.asAdmin3('GET', '/deletion_requests', {
      query: { project_mfid: await projectMfid(), limit: 1000 },
    });
    expect(inProject.body.items.map((r: { id: number }) => r.id)).toContain(w.deletionRequest);
    const elsewhere = await w.asAdmin3('GET', '/deletion_requests', {
      query: { project_mfid: '0000000000000000000000000a' },
    });
    expect(elsewhere.body.total).toBe(0);
    const approved = await w.asAdmin3('GET', '/deletion_requests', {
      query: { status: 'approved', limit: 1000 },
    });
    const reviewed = approved.body.items.find(
      (r: { requester_id: string }) => r.requester_id === w.user.user.uniqueId,
    );
    expect(reviewed.reviewer).toMatchObject({ unique_id: w.admin.user.uniqueId });
    expect(reviewed.capabilities).toEqual({ can_review: false });
  });

  test('bad scopes, sorts and directions are a 422; /api/v2 keeps its shape', async () => {
    const bad: Record<string, string>[] = [
      { scope: 'everything' },
      { sort: 'size' },
      { direction: 'asc' },
      { sort: 'status', direction: 'up' },
    ];
    for (const query of bad) {
      const r = await w.asAdmin3('GET', '/deletion_requests', { query });
      expect(r.status).toBe(422);
      expect(r.body.fields[0].field).toBe(Object.keys(query).at(-1));
    }
    const v2 = await w.asAdmin('GET', `/deletion_requests/${w.deletionRequest}`);
    expect(v2.body).not.toHaveProperty('requester');
    expect(v2.body).not.toHaveProperty('capabilities');
    expect(v2.body).not.toHaveProperty('project_mfid');
    const v3 = await w.asAdmin3('GET', `/deletion_requests/${w.deletionRequest}`);
    expect(v3.body.capabilities).toEqual({ can_review: true });
  });

  test('the audit: submitted for anyone, all for administrators, direction, project filters', async () => {
    const mine = await w.as3('GET', '/deletion_audit', { query: { scope: 'submitted' } });
    expect(mine.status).toBe(200);
    const entry = mine.body.items.find((a: { id: number }) => a.id === w.audit);
    expect(entry).toMatchObject({
      project_mfid: await projectMfid(),
      requester: { unique_id: w.user.user.uniqueId },
      reviewer: { unique_id: w.admin.user.uniqueId },
    });
    expect((await w.as3('GET', '/deletion_audit')).status).toBe(403);
    const all = await w.asAdmin3('GET', '/deletion_audit', {
      query: { scope: 'all', project_id: w.projectId, project_mfid: await projectMfid(), direction: 'asc' },
    });
    expect(all.status).toBe(200);
    const ids = all.body.items.map((a: { id: number }) => a.id);
    expect(ids).toContain(w.audit);
    expect([...ids].sort((a: number, b: number) => a - b)).toEqual(ids);
    expect((await w.asAdmin3('GET', '/deletion_audit', { query: { scope: 'mine' } })).status).toBe(422);
    expect((await w.asAdmin('GET', `/deletion_audit/${w.audit}`)).body).not.toHaveProperty('requester');
  });
});

/** `FacetResponse` as the client reads it: `{field, items[{value, label, count}], limit, next_cursor}`. */
const FACETS: Check = (value, where = 'facets') => {
  const problems = obj({ field: 'string', items: 'array', limit: 'integer', next_cursor: 'string?' })(
    value,
    where,
  );
  const body = value as { items?: unknown[]; next_cursor?: unknown };
  if (!('next_cursor' in (body ?? {}))) problems.push(`${where}.next_cursor is missing`);
  for (const [i, item] of (body?.items ?? []).entries())
    problems.push(
      ...obj({ value: 'string?', label: 'string?', count: 'integer?' })(item, `${where}.items[${i}]`),
    );
  return problems;
};

describe('facets and sorting as the client asks (test_facets, test_list_sort_filters)', () => {
  test("datasets.facets(field) and samples.facets(field): {field, limit: 100}, read items[0]['count']", async () => {
    const ds = await w.as3('GET', '/datasets/facets', { query: { field: 'measurement', limit: 100 } });
    expect(ds.status).toBe(200);
    expect(FACETS(ds.body)).toEqual([]);
    expect(ds.body).toMatchObject({ field: 'measurement', limit: 100 });
    expect(ds.body.items).toContainEqual({ value: 'test', label: 'test', count: expect.any(Number) });
    const samples = await w.as3('GET', '/samples/facets', { query: { field: 'sample_type', limit: 100 } });
    expect(samples.status).toBe(200);
    expect(FACETS(samples.body)).toEqual([]);
    expect(
      samples.body.items.find((b: { value: string }) => b.value === 'test').count,
    ).toBeGreaterThanOrEqual(3);
  });

  test('limit, sort, direction and cursor are honoured; direction alone is allowed', async () => {
    // a second value beside the world's `test`
    await w.asAdmin3('POST', '/datasets', { body: { dataset_name: 'facet', measurement: 'other' } });
    await w.asAdmin3('POST', '/samples', { body: { sample_name: 'facet', sample_type: 'other' } });
    for (const [path, field] of [
      ['/datasets/facets', 'measurement'],
      ['/samples/facets', 'sample_type'],
    ] as const) {
      const first = await w.asAdmin3('GET', path, {
        query: { field, limit: 1, sort: 'count', direction: 'desc' },
      });
      expect(first.status).toBe(200);
      expect(first.body.items).toHaveLength(1);
      expect(first.body.next_cursor).toEqual(expect.any(String));
      const next = await w.asAdmin3('GET', path, {
        query: { field, limit: 1, sort: 'count', direction: 'desc', cursor: first.body.next_cursor },
      });
      expect(next.status).toBe(200);
      expect(next.body.items[0].count).toBeLessThanOrEqual(first.body.items[0].count);
      expect(next.body.items[0].value).not.toBe(first.body.items[0].value);
      expect((await w.as3('GET', path, { query: { field, direction: 'desc' } })).status).toBe(200);
    }
  });

  test('list filters restrict the contributing records; typed references are on the buckets', async () => {
    const inst = await w.as3('GET', '/datasets/facets', {
      query: { field: 'project', project_id: w.projectId, limit: 100 },
    });
    expect(inst.body.items).toEqual([
      expect.objectContaining({
        value: expect.any(String),
        project: expect.objectContaining({ project_id: w.projectId }),
      }),
    ]);
    const owners = await w.as3('GET', '/datasets/facets', {
      query: { field: 'owner', project_id: w.projectId },
    });
    // every bucket names its owner (earlier blocks move some of the project's records to others)
    const buckets = owners.body.items as { value: string; owner: { unique_id: string } }[];
    expect(buckets.every((b) => b.owner.unique_id === b.value)).toBe(true);
    expect(buckets.map((b) => b.owner.unique_id)).toContain(w.user.user.uniqueId);
    expect((await w.as3('GET', '/datasets/facets', { query: { field: 'bogus' } })).status).toBe(422);
    expect((await w.as3('GET', '/samples/facets', { query: { field: 'instrument' } })).status).toBe(422);
  });

  test('samples.list(sort=, direction=) orders the page; direction without sort is a 422', async () => {
    const bad = await w.as3('GET', '/samples', { query: { direction: 'desc' } });
    expect([bad.status, bad.body.fields[0].field]).toEqual([422, 'direction']);
    const byCreation = await w.as3('GET', '/samples', {
      query: { sort: 'created', direction: 'desc', project_id: w.projectId, include_total: 'False' },
    });
    expect(byCreation.status).toBe(200);
    expect(envK(SAMPLE)(byCreation.body)).toEqual([]);
    const times = byCreation.body.items.map((s: { creation_time: string }) => s.creation_time);
    expect([...times].sort().reverse()).toEqual(times);
  });
  test('anchor_mfid: an inclusive window of the sorted list starting at the record, on both sides (sibling pages)', async () => {
    for (const [path, name, create] of [
      ['/datasets', 'dataset_name', w.newDataset],
      ['/samples', 'sample_name', w.newSample],
    ] as const) {
      // siblings with names of their own, among the project's other records
      for (const n of ['sib b', 'Sib a', 'sib d', 'sib c']) {
        const id = await create();
        expect((await w.as3('PATCH', `${path}/${id}`, { body: { [name]: `${w.tag} ${n}` } })).status).toBe(
          200,
        );
      }
      const whole = async (direction: string) => {
        const r = await w.as3('GET', path, {
          query: { sort: 'name', direction, project_id: w.projectId, limit: 1000 },
        });
        expect([r.status, r.body.next_cursor]).toEqual([200, null]);
        return r.body.items.map((x: { unique_id: string }) => x.unique_id) as string[];
      };
      const asc = await whole('asc');
      const desc = await whole('desc');
      const anchor = asc[Math.floor(asc.length / 2)];
      for (const [direction, order] of [
        ['asc', asc],
        ['desc', desc],
      ] as const) {
        const query = { sort: 'name', direction, project_id: w.projectId, limit: 2, anchor_mfid: anchor };
        const first = await w.as3('GET', path, { query });
        expect(first.status).toBe(200);
        const at = order.indexOf(anchor);
        const ids = first.body.items.map((x: { unique_id: string }) => x.unique_id);
        expect(ids).toEqual(order.slice(at, at + 2));
        // next_cursor continues the window without the anchor
        if (at + 2 < order.length) {
          const { anchor_mfid: _, ...rest } = query;
          const next = await w.as3('GET', path, { query: { ...rest, cursor: first.body.next_cursor } });
          expect(next.status).toBe(200);
          expect(next.body.items.map((x: { unique_id: string }) => x.unique_id)).toEqual(
            order.slice(at + 2, at + 4),
          );
        }
      }
      // by creation time as well (an indexed order): the anchor comes first
      const byTime = await w.as3('GET', path, {
        query: { sort: 'created', direction: 'desc', project_id: w.projectId, anchor_mfid: anchor, limit: 1 },
      });
      expect(byTime.body.items.map((x: { unique_id: string }) => x.unique_id)).toEqual([anchor]);
    }
  });

  test('anchor_mfid: a 422 without sort, with a cursor, and for a record the list does not hold or the caller cannot read', async () => {
    const own = w.dataset;
    const hidden = await w.asAdmin3('POST', '/datasets', {
      body: { dataset_name: `${w.tag} hidden`, public: false },
    });
    expect(hidden.status).toBe(201);
    const refused = async (query: Record<string, string | number>) => {
      const r = await w.as3('GET', '/datasets', { query });
      expect(r.status).toBe(422);
      expect(r.body.fields[0].field).toBe('anchor_mfid');
      return r.body.fields[0].message as string;
    };
    await refused({ anchor_mfid: own });
    const page = await w.as3('GET', '/datasets', { query: { sort: 'name', limit: 1 } });
    await refused({ anchor_mfid: own, sort: 'name', cursor: page.body.next_cursor });
    const missing = await refused({ anchor_mfid: '00000000000000000000000000', sort: 'name' });
    // unreadable and missing are told apart by nothing
    expect(await refused({ anchor_mfid: hidden.body.unique_id, sort: 'name' })).toBe(missing);
    // readable, but outside the list's filters
    expect(await refused({ anchor_mfid: own, sort: 'name', measurement: 'no such measurement' })).toBe(
      missing,
    );
    await refused({ anchor_mfid: 'not an mfid', sort: 'name' });
    // samples answer the same
    const s = await w.as3('GET', '/samples', {
      query: { anchor_mfid: hidden.body.unique_id, sort: 'created' },
    });
    expect([s.status, s.body.fields[0].field]).toEqual([422, 'anchor_mfid']);
  });
});
