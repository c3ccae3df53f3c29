import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { addMember, grant, makeProject, makeUser, randomOrcid, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';
import type { Project } from '../../src/modules/project/project.entity';

let t: TestApp;
let admin: TestUser;
let owner: TestUser;
let heir: TestUser;
let member: TestUser;
let editor: TestUser;
let stranger: TestUser;
let home: Project;
let target: Project;

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  owner = await makeUser(t.app, { orcid: randomOrcid() });
  heir = await makeUser(t.app, { orcid: randomOrcid() });
  member = await makeUser(t.app, { orcid: randomOrcid() });
  editor = await makeUser(t.app);
  stranger = await makeUser(t.app);
  home = await makeProject(t.app, admin.user);
  target = await makeProject(t.app, admin.user);
  await addMember(t.app, home, owner.user, 'contributor');
  await addMember(t.app, target, owner.user, 'contributor');
  await addMember(t.app, target, member.user, 'viewer');
});
afterAll(() => t.close());

const transfer = (key: string, id: string, body: Record<string, unknown>) =>
  rest(t.url, 'POST', `/resources/${id}/transfer_ownership`, { key, body });
const reassign = (key: string, id: string, body: Record<string, unknown>) =>
  rest(t.url, 'POST', `/resources/${id}/reassign_project`, { key, body });
const ownerOf = async (id: string) =>
  (await rest(t.url, 'GET', `/resources/${id}`, { key: admin.key })).body.owner_orcid as string;

describe('ownership transfer', () => {
  test('preview shows the exact effect and changes nothing; confirm applies it', async () => {
    const ds = await newDataset(t.url, owner.key, { project_id: home.projectId });
    await grant(t.app, ds, 'dataset', 'user', heir.user.uniqueId, 'viewer');
    await grant(t.app, ds, 'dataset', 'user', editor.user.uniqueId, 'editor');
    const child = await newDataset(t.url, owner.key);
    await rest(t.url, 'POST', '/resources/links', {
      key: owner.key,
      body: { parent_mfid: ds, child_mfid: child },
    });
    await rest(t.url, 'POST', `/datasets/${ds}/files`, {
      key: owner.key,
      body: { filename: 'remote.h5', storage_backend: 'tape' },
    });

    const preview = await transfer(owner.key, ds, { new_owner: heir.user.email });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      action: 'transfer_ownership',
      applied: false,
      resource: { unique_id: ds, resource_type: 'dataset', name: 'ds' },
      current_owner: { unique_id: owner.user.uniqueId },
      new_owner: { unique_id: heir.user.uniqueId },
      gains: [{ user: { unique_id: heir.user.uniqueId }, before: 'viewer', after: 'owner' }],
      // the old owner keeps only what their project membership gives
      losses: [{ user: { unique_id: owner.user.uniqueId }, before: 'owner', after: 'contributor' }],
      grants_affected: [
        { principal_type: 'user', principal_id: heir.user.uniqueId, permission: 'viewer', effect: 'removed' },
      ],
      related: { files: 1, links: [{ unique_id: child, resource_type: 'dataset', relationship: 'child' }] },
    });
    expect(preview.body.new_owner).not.toHaveProperty('email');
    expect(typeof preview.body.token).toBe('string');
    expect(preview.body).not.toHaveProperty('record');
    expect(await ownerOf(ds)).toBe(owner.user.uniqueId);
    // previews are repeatable: the same state gives the same token
    expect((await transfer(owner.key, ds, { new_owner: heir.user.uniqueId })).body.token).toBe(
      preview.body.token,
    );

    const done = await transfer(owner.key, ds, {
      new_owner: heir.user.uniqueId,
      confirm: true,
      token: preview.body.token,
    });
    expect(done.status).toBe(200);
    expect(done.body.applied).toBe(true);
    expect(done.body.record).toMatchObject({ unique_id: ds, owner_orcid: heir.user.uniqueId });
    expect(await ownerOf(ds)).toBe(heir.user.uniqueId);
    const access = await rest(t.url, 'GET', `/resources/${ds}/access`, { key: heir.key });
    expect(access.body.effective_access).toBe('owner');
    expect(access.body.grants.map((g: { principal_id: string }) => g.principal_id)).toEqual([
      editor.user.uniqueId,
    ]);
    // the old owner: a project contributor now, no longer able to manage or transfer
    const asOld = await rest(t.url, 'GET', `/datasets/${ds}`, { key: owner.key });
    expect(asOld.body.capabilities).toMatchObject({ can_add_files: true, can_manage_access: false });
    expect((await transfer(owner.key, ds, { new_owner: owner.user.uniqueId })).status).toBe(403);
  });

  test('confirm may come in the query (?confirm=True); body and query must agree', async () => {
    const sample = await newSample(t.url, owner.key);
    const clash = await rest(t.url, 'POST', `/resources/${sample}/transfer_ownership`, {
      key: owner.key,
      query: { confirm: 'True' },
      body: { new_owner: heir.user.username, confirm: false },
    });
    expect(clash.status).toBe(422);
    expect(clash.body.fields[0].field).toBe('confirm');
    expect(await ownerOf(sample)).toBe(owner.user.uniqueId);
    const done = await rest(t.url, 'POST', `/resources/${sample}/transfer_ownership`, {
      key: owner.key,
      query: { confirm: 'True' },
      body: { new_owner: heir.user.username },
    });
    expect(done.status).toBe(200);
    expect(done.body.applied).toBe(true);
    expect(await ownerOf(sample)).toBe(heir.user.uniqueId);
  });

  test('the old owner keeps no implicit access', async () => {
    const sample = await newSample(t.url, owner.key);
    const done = await transfer(owner.key, sample, { new_owner: heir.user.username, confirm: true });
    expect(done.status).toBe(200);
    expect(done.body.losses).toEqual([
      expect.objectContaining({
        user: expect.objectContaining({ unique_id: owner.user.uniqueId }),
        after: null,
      }),
    ]);
    expect((await rest(t.url, 'GET', `/samples/${sample}`, { key: owner.key })).status).toBe(404);
  });

  test('a stale token fails with 409 and changes nothing', async () => {
    const ds = await newDataset(t.url, owner.key);
    const preview = await transfer(owner.key, ds, { new_owner: heir.user.uniqueId });
    // something the preview depended on changes: a new grant
    await rest(t.url, 'PUT', `/resources/${ds}/access/users/${stranger.user.uniqueId}`, {
      key: owner.key,
      body: { permission: 'viewer' },
    });
    const stale = await transfer(owner.key, ds, {
      new_owner: heir.user.uniqueId,
      confirm: true,
      token: preview.body.token,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toMatch(/changed since the preview/);
    expect(await ownerOf(ds)).toBe(owner.user.uniqueId);
    const wrong = await transfer(owner.key, ds, {
      new_owner: heir.user.uniqueId,
      confirm: true,
      token: 'nonsense',
    });
    expect(wrong.status).toBe(409);
    // a token from a preview of another change does not confirm this one
    const other = await transfer(owner.key, ds, { new_owner: member.user.uniqueId });
    const mixed = await transfer(owner.key, ds, {
      new_owner: heir.user.uniqueId,
      confirm: true,
      token: other.body.token,
    });
    expect(mixed.status).toBe(409);
    expect(await ownerOf(ds)).toBe(owner.user.uniqueId);
  });

  test('concurrent confirms apply once; the others see the changed state (409)', async () => {
    const ds = await newDataset(t.url, owner.key);
    const preview = await transfer(owner.key, ds, { new_owner: heir.user.uniqueId });
    const results = await Promise.all(
      [heir, member, editor].map((to, i) =>
        transfer(owner.key, ds, {
          new_owner: to.user.uniqueId,
          confirm: true,
          ...(i === 0 ? { token: preview.body.token } : {}),
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200 || s === 409 || s === 403)).toHaveLength(3);
    const winner = results.find((r) => r.status === 200)!;
    expect(await ownerOf(ds)).toBe(winner.body.new_owner.unique_id);

    // the same confirm twice at once: one applies, the other is a 409
    const ds2 = await newDataset(t.url, owner.key);
    const p2 = await transfer(owner.key, ds2, { new_owner: heir.user.uniqueId });
    const twice = await Promise.all(
      [0, 1].map(() =>
        transfer(owner.key, ds2, { new_owner: heir.user.uniqueId, confirm: true, token: p2.body.token }),
      ),
    );
    expect(twice.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  test('who may: owner and platform admins; 404 unreadable, 403 readable; bad input is 422 or 409', async () => {
    const ds = await newDataset(t.url, owner.key);
    await grant(t.app, ds, 'dataset', 'user', editor.user.uniqueId, 'admin');
    expect((await transfer(stranger.key, ds, { new_owner: stranger.user.uniqueId })).status).toBe(404);
    expect((await transfer(editor.key, ds, { new_owner: editor.user.uniqueId })).status).toBe(403);
    expect((await transfer(admin.key, ds, { new_owner: heir.user.uniqueId })).status).toBe(200);
    const unknown = await transfer(owner.key, ds, { new_owner: 'nobody-here-at-all' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.fields[0].field).toBe('new_owner');
    expect((await transfer(owner.key, ds, {})).status).toBe(422);
    expect((await transfer(owner.key, ds, { new_owner: heir.user.uniqueId, confirm: 'yes' })).status).toBe(
      422,
    );
    expect((await transfer(owner.key, ds, { new_owner: heir.user.uniqueId, extra: 1 })).status).toBe(422);
    expect((await transfer(owner.key, ds, { new_owner: owner.user.uniqueId })).status).toBe(409);
    expect(await ownerOf(ds)).toBe(owner.user.uniqueId);
    // ordinary updates reject ownership fields
    const patch = await rest(t.url, 'PATCH', `/datasets/${ds}`, {
      key: owner.key,
      body: { owner_orcid: heir.user.uniqueId },
    });
    expect(patch.status).toBe(422);
    expect(patch.body.detail).toMatch(/transfer_ownership/);
  });

  test('projects (the lead) and instruments', async () => {
    const project = await makeProject(t.app, owner.user);
    await addMember(t.app, project, member.user, 'editor');
    const preview = await transfer(owner.key, project.projectId, { new_owner: member.user.uniqueId });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      resource: { unique_id: project.uniqueId, resource_type: 'project' },
      gains: [{ user: { unique_id: member.user.uniqueId }, before: 'editor', after: 'owner' }],
      losses: [{ user: { unique_id: owner.user.uniqueId }, before: 'owner', after: 'viewer' }],
      related: { datasets: 0, samples: 0 },
    });
    const done = await transfer(owner.key, project.uniqueId, {
      new_owner: member.user.uniqueId,
      confirm: true,
    });
    expect(done.body.record).toMatchObject({ project_lead_orcid: member.user.uniqueId });
    const read = await rest(t.url, 'GET', `/projects/${project.uniqueId}`, { key: owner.key });
    expect(read.body.capabilities.can_update).toBe(false);
    const lead = await rest(t.url, 'GET', `/projects/${project.uniqueId}`, { key: member.key });
    expect(lead.body.capabilities.can_transfer_ownership).toBe(true);

    const created = await rest(t.url, 'POST', '/instruments', {
      key: admin.key,
      body: { instrument_name: `Transfer ${project.projectId}`, owner: owner.user.uniqueId },
    });
    const iid = created.body.unique_id as string;
    const moved = await transfer(owner.key, iid, { new_owner: heir.user.uniqueId, confirm: true });
    expect(moved.body.record).toMatchObject({ owner_orcid: heir.user.uniqueId });
    const patch = await rest(t.url, 'PATCH', `/instruments/${iid}`, {
      key: heir.key,
      body: { owner: owner.user.uniqueId },
    });
    expect(patch.status).toBe(422);
  });
});

describe('project reassignment', () => {
  test('preview shows who gains and loses; confirm moves the record', async () => {
    const ds = await newDataset(t.url, owner.key, { project_id: home.projectId });
    await grant(t.app, ds, 'dataset', 'project', target.uniqueId, 'viewer');
    const preview = await reassign(owner.key, ds, { project_id: target.projectId });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      action: 'reassign_project',
      applied: false,
      current_project: { unique_id: home.uniqueId, project_id: home.projectId },
      new_project: { unique_id: target.uniqueId, project_id: target.projectId },
      grants_affected: [{ principal_type: 'project', principal_id: target.uniqueId, effect: 'kept' }],
    });
    // the lead of both projects keeps admin; target's viewer member stays viewer: nobody changes but...
    const gains = preview.body.gains.map((g: { user: { unique_id: string } }) => g.user.unique_id);
    expect(gains).not.toContain(owner.user.uniqueId);
    const list = await rest(t.url, 'GET', '/datasets', { key: owner.key, query: { unique_id: ds } });
    expect(list.body.items[0].project_id).toBe(home.projectId);

    const done = await reassign(owner.key, ds, {
      project_mfid: target.uniqueId,
      confirm: true,
      token: preview.body.token,
    });
    expect(done.status).toBe(200);
    expect(done.body.record).toMatchObject({ project_id: target.projectId, project_mfid: target.uniqueId });
    const inTarget = await rest(t.url, 'GET', '/datasets', {
      key: member.key,
      query: { project_id: target.projectId, unique_id: ds },
    });
    expect(inTarget.body.items[0].project_relation).toBe('assigned');
  });

  test('members of the old project lose access, members of the new one gain it', async () => {
    const lead = await makeUser(t.app);
    const from = await makeProject(t.app, lead.user);
    const to = await makeProject(t.app, lead.user);
    const leaving = await makeUser(t.app);
    const arriving = await makeUser(t.app);
    await addMember(t.app, from, leaving.user, 'editor');
    await addMember(t.app, to, arriving.user, 'viewer');
    await addMember(t.app, from, owner.user, 'contributor');
    await addMember(t.app, to, owner.user, 'contributor');
    const sample = await newSample(t.url, owner.key, { project_id: from.projectId });
    const preview = await reassign(owner.key, sample, { project_id: to.projectId });
    expect(preview.body.gains).toEqual([
      expect.objectContaining({
        user: expect.objectContaining({ unique_id: arriving.user.uniqueId }),
        before: null,
        after: 'viewer',
      }),
    ]);
    expect(preview.body.losses).toEqual([
      expect.objectContaining({
        user: expect.objectContaining({ unique_id: leaving.user.uniqueId }),
        before: 'editor',
        after: null,
      }),
    ]);
    expect((await rest(t.url, 'GET', `/samples/${sample}`, { key: leaving.key })).status).toBe(200);
    await reassign(owner.key, sample, { project_id: to.projectId, confirm: true });
    expect((await rest(t.url, 'GET', `/samples/${sample}`, { key: leaving.key })).status).toBe(404);
    expect((await rest(t.url, 'GET', `/samples/${sample}`, { key: arriving.key })).status).toBe(200);
  });

  test('needs own on the record and contributor on the target; bad input', async () => {
    const ds = await newDataset(t.url, owner.key, { project_id: home.projectId });
    await grant(t.app, ds, 'dataset', 'user', editor.user.uniqueId, 'admin');
    const elsewhere = await makeProject(t.app, admin.user);
    expect((await reassign(stranger.key, ds, { project_id: target.projectId })).status).toBe(404);
    expect((await reassign(editor.key, ds, { project_id: target.projectId })).status).toBe(403);
    const noRole = await reassign(owner.key, ds, { project_id: elsewhere.projectId });
    expect(noRole.status).toBe(403);
    expect(noRole.body.detail).toMatch(/contributor/);
    expect((await reassign(owner.key, ds, { project_id: home.projectId })).status).toBe(409);
    expect((await reassign(owner.key, ds, {})).status).toBe(422);
    const conflicting = await reassign(owner.key, ds, {
      project_id: target.projectId,
      project_mfid: home.uniqueId,
    });
    expect(conflicting.status).toBe(422);
    expect((await reassign(owner.key, ds, { project_id: 'no-such-project-r' })).status).toBe(422);
    expect((await reassign(admin.key, home.uniqueId, { project_id: target.projectId })).status).toBe(422);
    expect((await reassign(admin.key, ds, { project_id: elsewhere.projectId })).status).toBe(200);
    const patch = await rest(t.url, 'PATCH', `/datasets/${ds}`, {
      key: owner.key,
      body: { project_id: target.projectId },
    });
    expect(patch.status).toBe(422);
    const list = await rest(t.url, 'GET', '/datasets', { key: owner.key, query: { unique_id: ds } });
    expect(list.body.items[0].project_id).toBe(home.projectId);
  });
});

describe('GraphQL', () => {
  test('transferOwnership and reassignProject: preview, then confirm with the token', async () => {
    const ds = await newDataset(t.url, owner.key, { project_id: home.projectId });
    const preview = await gql(
      t.url,
      owner.key,
      `mutation($id: ID!, $to: String!) { transferOwnership(id: $id, newOwner: $to) {
         applied token newOwner { uniqueId } gains { user { uniqueId } before after } } }`,
      { id: ds, to: heir.user.uniqueId },
    );
    expect(preview.errors).toBeUndefined();
    expect(preview.data.transferOwnership).toMatchObject({
      applied: false,
      newOwner: { uniqueId: heir.user.uniqueId },
      gains: [{ user: { uniqueId: heir.user.uniqueId }, before: null, after: 'owner' }],
    });
    const moved = await gql(
      t.url,
      owner.key,
      `mutation($id: ID!) { reassignProject(id: $id, projectId: "${target.projectId}") { applied token } }`,
      { id: ds },
    );
    const confirmed = await gql(
      t.url,
      owner.key,
      `mutation($id: ID!, $token: String) { reassignProject(id: $id, projectId: "${target.projectId}", confirm: true, token: $token) {
         applied resource { ... on Dataset { projectId capabilities { canReassignProject } } } } }`,
      { id: ds, token: moved.data.reassignProject.token },
    );
    expect(confirmed.errors).toBeUndefined();
    expect(confirmed.data.reassignProject).toEqual({
      applied: true,
      resource: { projectId: target.projectId, capabilities: { canReassignProject: true } },
    });
    const stale = await gql(
      t.url,
      owner.key,
      `mutation($id: ID!, $to: String!, $token: String) { transferOwnership(id: $id, newOwner: $to, confirm: true, token: $token) { applied } }`,
      { id: ds, to: heir.user.uniqueId, token: preview.data.transferOwnership.token },
    );
    expect(stale.errors?.[0].extensions?.code).toBe('CONFLICT');
  });
});
