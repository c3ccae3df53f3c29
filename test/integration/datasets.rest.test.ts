import { startTestApp, type TestApp } from '../support/app';
import { rest } from '../support/http';
import {
  addMember,
  grant,
  makeProject,
  makeUser,
  randomOrcid,
  unique,
  type TestUser,
} from '../support/factories';
import { newMfid } from '../../src/core/ids';
import type { Project } from '../../src/modules/project/project.entity';

let t: TestApp;
let admin: TestUser;
let owner: TestUser;
let stranger: TestUser;
let project: Project;
let instrument: { unique_id: string; instrument_id: string; instrument_name: string };
let other: { unique_id: string; instrument_id: string };

const post = (key: string, body: unknown) => rest(t.url, 'POST', '/datasets', { key, body });

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  owner = await makeUser(t.app, { orcid: randomOrcid() });
  stranger = await makeUser(t.app);
  project = await makeProject(t.app, admin.user);
  await addMember(t.app, project, owner.user, 'contributor');
  const name = unique('Microscope');
  instrument = (
    await rest(t.url, 'POST', '/instruments', { key: admin.key, body: { instrument_name: name } })
  ).body;
  other = (
    await rest(t.url, 'POST', '/instruments', { key: admin.key, body: { instrument_name: unique('Other') } })
  ).body;
});
afterAll(() => t.close());

describe('POST /datasets', () => {
  test('accepts every create field and keeps a client-supplied unique_id', async () => {
    const id = newMfid();
    const res = await post(owner.key, {
      unique_id: id,
      dataset_name: 'spin run 1',
      project_id: project.projectId,
      project_mfid: project.uniqueId,
      measurement: 'XRD',
      data_type: 'XRD Pattern',
      instrument_name: instrument.instrument_name,
      instrument_id: instrument.instrument_id,
      instrument_mfid: instrument.unique_id,
      data_format: 'txt',
      session_name: 'session-a',
      timestamp: '2026-01-17T01:31:26Z',
      public: false,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      unique_id: id,
      dataset_name: 'spin run 1',
      project_id: project.projectId,
      project: { unique_id: project.uniqueId, project_id: project.projectId },
      instrument: { unique_id: instrument.unique_id, instrument_name: instrument.instrument_name },
      instrument_id: instrument.instrument_id,
      owner_orcid: owner.user.uniqueId,
      size: 0,
      public: false,
      resource_type: 'dataset',
    });
    expect(res.body.capabilities.can_change_status).toBe(false);
  });

  test('a duplicate or malformed unique_id is refused and changes nothing', async () => {
    const id = newMfid();
    expect((await post(owner.key, { unique_id: id })).status).toBe(201);
    const dup = await post(owner.key, { unique_id: id, dataset_name: 'second' });
    expect(dup.status).toBe(409);
    expect((await rest(t.url, 'GET', `/datasets/${id}`, { key: owner.key })).body.dataset_name).toBeNull();
    const bad = await post(owner.key, { unique_id: 'not-an-mfid' });
    expect(bad.status).toBe(422);
    expect(bad.body.fields).toEqual([{ field: 'unique_id', message: expect.any(String) }]);
  });

  test('owner is flexible (ORCID, MFID, username, email) and defaults to the caller', async () => {
    for (const selector of [
      owner.user.uniqueId,
      owner.user.username,
      owner.user.email,
      owner.user.email!.toUpperCase(),
    ]) {
      const res = await post(admin.key, { owner: selector });
      expect(res.status).toBe(201);
      expect(res.body.owner_orcid).toBe(owner.user.uniqueId);
    }
    const sa = await makeUser(t.app, { serviceAccount: true });
    expect((await post(admin.key, { owner: sa.user.uniqueId })).body.owner_orcid).toBe(sa.user.uniqueId);
    expect((await post(owner.key, {})).body.owner_orcid).toBe(owner.user.uniqueId);
    expect((await post(admin.key, { owner_orcid: owner.user.uniqueId })).body.owner_orcid).toBe(
      owner.user.uniqueId,
    );
  });

  test('owner with owner_orcid, unknown owners and unknown fields are validation errors', async () => {
    const both = await post(admin.key, { owner: owner.user.username, owner_orcid: owner.user.uniqueId });
    expect(both.status).toBe(422);
    expect(both.body.fields.map((f: { field: string }) => f.field).sort()).toEqual(['owner', 'owner_orcid']);
    // an empty owner is not "no owner": it cannot slip past the conflict check
    const empty = await post(admin.key, { owner: '', owner_orcid: owner.user.uniqueId });
    expect(empty.status).toBe(422);
    expect((await post(admin.key, { owner: '' })).body.fields).toEqual([
      { field: 'owner', message: 'must be an ORCID, MFID, username or email' },
    ]);
    const unknownOwner = await post(admin.key, { owner: 'nobody-at-all' });
    expect(unknownOwner.status).toBe(422);
    expect(unknownOwner.body.detail).toMatch(/^owner:/);
    const extra = await post(admin.key, { description: 'x', sample_count: 2 });
    expect(extra.status).toBe(422);
    expect(extra.body.fields.map((f: { field: string }) => f.field)).toEqual(['description', 'sample_count']);
    // the legacy client's parsers always send source_folder: accepted on create, never stored
    const parsed = await post(admin.key, { dataset_name: 'parsed', source_folder: '/home/u/run1' });
    expect(parsed.status).toBe(201);
    expect(parsed.body).not.toHaveProperty('source_folder');
    const patched = await rest(t.url, 'PATCH', `/datasets/${parsed.body.unique_id}`, {
      key: admin.key,
      body: { source_folder: '/elsewhere' },
    });
    expect(patched.status).toBe(422);
    const types = await post(admin.key, { public: 'yes', dataset_name: 5, timestamp: 'yesterday' });
    expect(types.status).toBe(422);
  });

  test('only admins, service accounts and project admins create for another owner', async () => {
    const res = await post(stranger.key, { owner: owner.user.uniqueId });
    expect(res.status).toBe(403);
  });

  test('project selectors must agree and name a project the caller may write to', async () => {
    const otherProject = await makeProject(t.app, admin.user);
    const conflict = await post(owner.key, {
      project_id: project.projectId,
      project_mfid: otherProject.uniqueId,
    });
    expect(conflict.status).toBe(422);
    expect(conflict.body.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'project_id',
      'project_mfid',
    ]);
    const missing = await post(owner.key, { project_id: 'no-such-project-xyz' });
    expect(missing.status).toBe(422);
    const byMfid = await post(owner.key, { project_mfid: project.uniqueId });
    expect(byMfid.body.project_id).toBe(project.projectId);
    const notMember = await post(stranger.key, { project_id: project.projectId });
    expect(notMember.status).toBe(403);
  });

  test('instrument selectors must agree and name a registered instrument', async () => {
    const conflict = await post(owner.key, {
      instrument_id: instrument.instrument_id,
      instrument_mfid: other.unique_id,
    });
    expect(conflict.status).toBe(422);
    const nameMismatch = await post(owner.key, {
      instrument_mfid: instrument.unique_id,
      instrument_name: 'Something else',
    });
    expect(nameMismatch.status).toBe(422);
    expect((await post(owner.key, { instrument_id: 'no-such-instrument' })).status).toBe(422);
    const unregistered = await post(owner.key, { instrument_name: 'Old bench rig' });
    expect(unregistered.status).toBe(422);
    expect(unregistered.body.fields).toEqual([
      {
        field: 'instrument_name',
        message:
          'no instrument is registered as "Old bench rig" (a platform administrator registers instruments)',
      },
    ]);
    const byName = await post(owner.key, { instrument_name: instrument.instrument_name });
    expect(byName.status).toBe(201);
    expect(byName.body.instrument_mfid).toBe(instrument.unique_id);
  });
});

describe('GET /datasets/{id}', () => {
  let id: string;
  beforeAll(async () => {
    id = (await post(owner.key, { dataset_name: 'detail', instrument_mfid: instrument.unique_id })).body
      .unique_id;
  });

  test('expands the owner by default, public-safe (email only for oneself and platform admins)', async () => {
    const mine = await rest(t.url, 'GET', `/datasets/${id}`, { key: owner.key });
    expect(mine.body.owner).toEqual({
      unique_id: owner.user.uniqueId,
      username: owner.user.username,
      first_name: 'Test',
      last_name: owner.user.lastName,
      email: owner.user.email,
    });
    const asAdmin = await rest(t.url, 'GET', `/datasets/${id}`, { key: admin.key });
    expect(asAdmin.body.owner.email).toBe(owner.user.email);
    await grant(t.app, id, 'dataset', 'user', stranger.user.uniqueId, 'viewer');
    const asViewer = await rest(t.url, 'GET', `/datasets/${id}`, { key: stranger.key });
    expect(asViewer.status).toBe(200);
    expect(asViewer.body.owner).not.toHaveProperty('email');
    expect(asViewer.body.capabilities).toMatchObject({
      can_read: true,
      can_update: false,
      can_change_status: false,
    });
    const noOwner = await rest(t.url, 'GET', `/datasets/${id}`, {
      key: owner.key,
      query: { include_owner: 'False' },
    });
    expect(noOwner.body).not.toHaveProperty('owner');
  });

  test('unknown, malformed and unreadable ids are all 404', async () => {
    const secret = (await post(owner.key, { dataset_name: 'private' })).body.unique_id;
    expect((await rest(t.url, 'GET', `/datasets/${secret}`, { key: stranger.key })).status).toBe(404);
    expect((await rest(t.url, 'GET', `/datasets/${newMfid()}`, { key: owner.key })).status).toBe(404);
    expect((await rest(t.url, 'GET', '/datasets/short', { key: owner.key })).status).toBe(404);
  });

  test('include flags accept Python and JavaScript booleans and reject others', async () => {
    for (const v of ['True', 'true', 'False', 'false']) {
      expect(
        (await rest(t.url, 'GET', `/datasets/${id}`, { key: owner.key, query: { include_owner: v } })).status,
      ).toBe(200);
    }
    const bad = await rest(t.url, 'GET', `/datasets/${id}`, {
      key: owner.key,
      query: { include_owner: 'maybe' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toMatch(/include_owner/);
  });
});

describe('PATCH /datasets/{id}', () => {
  let id: string;
  beforeAll(async () => {
    id = (
      await post(owner.key, {
        dataset_name: 'before',
        instrument_mfid: instrument.unique_id,
        measurement: 'A',
      })
    ).body.unique_id;
  });
  const patch = (key: string, body: unknown) => rest(t.url, 'PATCH', `/datasets/${id}`, { key, body });

  test('updates exactly the updatable fields', async () => {
    const res = await patch(owner.key, {
      dataset_name: 'after',
      measurement: 'B',
      data_type: 'T',
      data_format: 'h5',
      session_name: 's2',
      timestamp: '2026-02-01',
      public: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      dataset_name: 'after',
      measurement: 'B',
      data_type: 'T',
      data_format: 'h5',
      session_name: 's2',
      timestamp: '2026-02-01',
      public: true,
    });
    expect((await patch(owner.key, { public: false, session_name: null })).body).toMatchObject({
      public: false,
      session_name: null,
    });
  });

  test('any other field is 422 and changes nothing', async () => {
    for (const body of [
      { description: 'x' },
      { project_id: project.projectId },
      { owner_orcid: stranger.user.uniqueId },
      { size: 5 },
      { measurement: 'C', unique_id: newMfid() },
    ]) {
      const res = await patch(owner.key, body);
      expect(res.status).toBe(422);
      expect(res.body.fields[0].field).toBe(Object.keys(body).find((k) => k !== 'measurement'));
    }
    expect((await rest(t.url, 'GET', `/datasets/${id}`, { key: owner.key })).body.measurement).toBe('B');
  });

  test('resubmitting the instrument is fine; changing or clearing it is 409', async () => {
    expect(
      (
        await patch(owner.key, {
          instrument_id: instrument.instrument_id,
          instrument_name: instrument.instrument_name,
        })
      ).status,
    ).toBe(200);
    const change = await patch(owner.key, { instrument_id: other.instrument_id });
    expect(change.status).toBe(409);
    expect((await patch(owner.key, { instrument_name: null })).status).toBe(409);
    expect((await patch(owner.key, { instrument_name: 'Another' })).status).toBe(409);
  });

  test('viewers cannot update; editors cannot change visibility; strangers get 404', async () => {
    const viewer = await makeUser(t.app);
    const editor = await makeUser(t.app);
    await grant(t.app, id, 'dataset', 'user', viewer.user.uniqueId, 'viewer');
    await grant(t.app, id, 'dataset', 'user', editor.user.uniqueId, 'editor');
    expect((await patch(viewer.key, { measurement: 'X' })).status).toBe(403);
    expect((await patch(editor.key, { measurement: 'E' })).status).toBe(200);
    expect((await patch(editor.key, { public: true })).status).toBe(403);
    expect((await patch(stranger.key, { measurement: 'X' })).status).toBe(404);
    const bad = await patch(owner.key, { timestamp: '17/01/2026' });
    expect(bad.status).toBe(422);
    expect(bad.body.fields[0].field).toBe('timestamp');
  });
});
