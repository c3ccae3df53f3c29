import { startTestApp, type TestApp } from '../support/app';
import { addMember, makeProject, makeUser, type TestUser } from '../support/factories';
import { formUpload } from '../support/files';
import { drainJobs } from '../support/jobs';
import { rawQuery } from '../../src/core/db/raw';
import type { RequestContext } from '../../src/core/context';

interface EventRow {
  id: string;
  type: string;
  actor_id: string | null;
  resource_id: string;
  resource_type: string;
  project_mfid: string | null;
  payload: Record<string, unknown>;
}

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
let ctx: RequestContext;
let last = '0';

beforeAll(async () => {
  t = await startTestApp();
  [owner, other, admin] = await Promise.all([
    makeUser(t.app),
    makeUser(t.app),
    makeUser(t.app, { admin: true }),
  ]);
  ctx = await t.app.contexts.forUser(owner.user.uniqueId, 'events-test');
});
afterAll(() => t.close());

/** The events written since the last call, for the records this test made (other tests share the database). */
async function newEvents(ids: string[]): Promise<EventRow[]> {
  const rows = await rawQuery<EventRow>(
    t.app.orm.em.fork(),
    'select * from domain_event where id > ? and resource_id in (?) order by id',
    [last, ids],
  );
  const all = await rawQuery<{ max: string | null }>(
    t.app.orm.em.fork(),
    'select max(id) as max from domain_event',
  );
  last = all[0].max ?? last;
  return rows;
}

/** Runs `change` and expects exactly one new event of `type` on `resource`. */
async function one(resource: string, type: string, change: () => Promise<unknown>): Promise<EventRow> {
  await newEvents([resource]);
  await change();
  const events = await newEvents([resource]);
  expect(events.map((e) => e.type)).toEqual([type]);
  return events[0];
}

/** Runs a change that fails and expects no event on `resource`. */
async function none(resource: string, change: () => Promise<unknown>): Promise<void> {
  await newEvents([resource]);
  await expect(change()).rejects.toThrow();
  expect(await newEvents([resource])).toEqual([]);
}

describe('the outbox: every state change writes exactly one event in its transaction', () => {
  test('datasets: created, updated with the changed fields, metadata keys, keywords, access, files', async () => {
    const s = t.app.services;
    let id = '';
    await newEvents(['-']);
    const ds = await s.dataset.create(ctx, { datasetName: 'outbox', scientificMetadata: { a: 1 } });
    id = ds.uniqueId;
    const created = (await newEvents([id]))[0];
    expect(created).toMatchObject({
      type: 'dataset.created',
      actor_id: owner.user.uniqueId,
      resource_type: 'dataset',
      payload: { owner: owner.user.uniqueId, fields: { datasetName: 'outbox' }, metadata_keys: ['a'] },
    });

    const updated = await one(id, 'dataset.updated', () =>
      s.dataset.update(ctx, id, { datasetName: 'renamed', measurement: 'XRD' }),
    );
    expect(updated.payload).toEqual({
      changes: { datasetName: { from: 'outbox', to: 'renamed' }, measurement: { from: null, to: 'XRD' } },
    });
    // the same values again change nothing, so no event
    await newEvents([id]);
    await s.dataset.update(ctx, id, { datasetName: 'renamed' });
    expect(await newEvents([id])).toEqual([]);
    await none(id, () => s.dataset.update(ctx, id, { datasetName: 'x'.repeat(600) }));

    const meta = await one(id, 'metadata.changed', () => s.metadata.write(ctx, id, 'merge', { a: 1, b: 2 }));
    expect(meta.payload).toEqual({ mode: 'merge', keys: ['b'], version: 2 });
    const replaced = await one(id, 'metadata.changed', () => s.metadata.write(ctx, id, 'replace', { c: 3 }));
    expect((replaced.payload.keys as string[]).sort()).toEqual(['a', 'b', 'c']);

    const kw = await one(id, 'keyword.added', () => s.keyword.add(ctx, id, 'outbox-kw'));
    expect(kw.payload).toEqual({ keyword: 'outbox-kw' });
    await newEvents([id]);
    await s.keyword.add(ctx, id, 'outbox-kw');
    expect(await newEvents([id])).toEqual([]);

    const granted = await one(id, 'access.granted', () =>
      s.grant.set(ctx, id, 'users', other.user.uniqueId, 'viewer'),
    );
    expect(granted.payload).toEqual({
      principal_type: 'user',
      principal_id: other.user.uniqueId,
      permission: 'viewer',
    });
    const changed = await one(id, 'access.changed', () =>
      s.grant.set(ctx, id, 'users', other.user.uniqueId, 'editor'),
    );
    expect(changed.payload).toMatchObject({ permission: 'editor', previous: 'viewer' });
    await one(id, 'access.revoked', () => s.grant.revoke(ctx, id, 'users', other.user.uniqueId));
    // granting to the owner is a 409: nothing changes, no event
    await none(id, () => s.grant.set(ctx, id, 'users', owner.user.uniqueId, 'viewer'));
    await one(id, 'access.public', () => s.resource.setPublic(ctx, id, true));
    await one(id, 'access.private', () => s.resource.setPublic(ctx, id, false));

    const remote = await s.file.addRemote(ctx, id, { filename: 'far.dat', storageBackend: 'tape' });
    const added = (await newEvents([id]))[0];
    expect(added).toMatchObject({
      type: 'file.added',
      payload: { file_id: remote.uniqueId, filename: 'far.dat' },
    });
    const pathSet = await one(id, 'file.storage_path_set', () =>
      s.file.update(ctx, remote.uniqueId, { storagePath: '/tape/7' }),
    );
    expect(pathSet.payload).toMatchObject({ changes: { storage_path: { from: null, to: '/tape/7' } } });
    await one(id, 'file.removed', () => s.file.delete(ctx, remote.uniqueId));
  });

  test('links, ownership, project reassignment, members, deletion and removal', async () => {
    const s = t.app.services;
    const a = (await s.dataset.create(ctx, { datasetName: 'parent' })).uniqueId;
    const b = (await s.dataset.create(ctx, { datasetName: 'child' })).uniqueId;
    const linked = await one(b, 'link.added', () => s.link.link(ctx, a, b, 'is_derived_from'));
    expect(linked.payload).toMatchObject({ parent_id: a, child_id: b, relationship_type: 'is_derived_from' });
    // a cycle is a 409: no event on either side
    await none(a, () => s.link.link(ctx, b, a));
    await one(b, 'link.removed', () => s.link.unlink(ctx, a, b));

    const sample = (await s.sample.create(ctx, { sampleName: 'outbox sample' })).uniqueId;
    await one(a, 'link.added', () => s.link.link(ctx, sample, a));

    const project = await makeProject(t.app, owner.user);
    const moved = await one(a, 'project.reassigned', () =>
      s.transfer.reassignProject(ctx, a, { projectId: project.projectId, confirm: true }),
    );
    expect(moved).toMatchObject({
      project_mfid: project.uniqueId,
      payload: { from: null, to: project.uniqueId },
    });
    const members = await one(project.uniqueId, 'project.members_changed', () =>
      s.projectMember.add(ctx, project.projectId, { ids: [['user', other.user.uniqueId]] }, 'viewer'),
    );
    expect(members.payload).toEqual({
      changes: [{ user_id: other.user.uniqueId, from: null, to: 'viewer' }],
    });
    // the preview changes nothing
    await newEvents([a]);
    await s.transfer.transferOwnership(ctx, a, { newOwner: other.user.uniqueId });
    expect(await newEvents([a])).toEqual([]);
    const transferred = await one(a, 'ownership.transferred', () =>
      s.transfer.transferOwnership(ctx, a, { newOwner: other.user.uniqueId, confirm: true }),
    );
    expect(transferred.payload).toEqual({ from: owner.user.uniqueId, to: other.user.uniqueId });

    const adminCtx = await t.app.contexts.forUser(admin.user.uniqueId, 'events-test');
    const request = await one(b, 'deletion.requested', () => s.deletion.request(ctx, b, 'mistake'));
    await one(b, 'deletion.rejected', () =>
      s.deletion.review(adminCtx, request.payload.request_id, 'rejected', 'keep it'),
    );
    const again = await one(b, 'deletion.requested', () => s.deletion.request(ctx, b, 'really'));
    await newEvents([b]);
    await s.deletion.review(adminCtx, again.payload.request_id, 'approved', null);
    const removal = await newEvents([b]);
    expect(removal.map((e) => e.type)).toEqual(['deletion.approved', 'resource.removed']);
    // the history outlives the record
    const kept = await rawQuery<{ n: number }>(
      t.app.orm.em.fork(),
      'select count(*)::int as n from domain_event where resource_id = ?',
      [b],
    );
    expect(kept[0].n).toBeGreaterThanOrEqual(6);
  });

  test('ingestion: file added, requested, started and complete on the dataset', async () => {
    const s = t.app.services;
    const ds = (await s.dataset.create(ctx, { datasetName: 'ingest' })).uniqueId;
    await newEvents([ds]);
    const up = await formUpload(t.url, owner.key, ds, [
      { name: 'notes.txt', data: Buffer.from('hello events') },
    ]);
    expect(up.status).toBe(201);
    expect((await newEvents([ds])).map((e) => e.type)).toEqual(['file.added', 'ingestion.requested']);
    await drainJobs(t);
    const after = await newEvents([ds]);
    expect(after.map((e) => e.type)).toEqual([
      'ingestion.started',
      expect.stringMatching(/^ingestion\.(complete|not_supported)$/),
    ]);
    expect(after[0].actor_id).toBeNull();
  });

  test('members added through a project role change write one event with every change', async () => {
    const s = t.app.services;
    const project = await makeProject(t.app, owner.user);
    await addMember(t.app, project, other.user, 'viewer');
    const changed = await one(project.uniqueId, 'project.members_changed', () =>
      s.projectMember.changeRole(ctx, project.projectId, { ids: [['user', other.user.uniqueId]] }, 'editor'),
    );
    expect(changed.payload).toEqual({
      changes: [{ user_id: other.user.uniqueId, from: 'viewer', to: 'editor' }],
    });
    await none(project.uniqueId, () =>
      s.projectMember.changeRole(ctx, project.projectId, { ids: [['user', admin.user.uniqueId]] }, 'editor'),
    );
  });

  test('an event emitted outside a transaction is refused', async () => {
    await expect(
      t.app.services.events.emit(t.app.orm.em.fork(), {
        type: 'dataset.updated',
        actorId: null,
        resourceId: 'x',
        resourceType: 'dataset',
      }),
    ).rejects.toThrow(/outside a transaction/);
  });
});
