import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { grant, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';
import { rawQuery } from '../../src/core/db/raw';
import { newMfid } from '../../src/core/ids';
import { formUpload } from '../support/files';

const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  [owner, stranger, admin] = await Promise.all([
    makeUser(t.app),
    makeUser(t.app),
    makeUser(t.app, { admin: true }),
  ]);
});
afterAll(() => t.close());

async function count(table: string, where: string, id: string): Promise<number> {
  const rows = await rawQuery<{ n: number }>(
    t.app.orm.em.fork(),
    `select count(*)::int as n from ${table} where ${where}`,
    [id],
  );
  return rows[0].n;
}

describe('deletion requests', () => {
  test('request hides from lists and searches, keeps reads and graphs; admins review', async () => {
    const name = unique('doomed');
    const ds = await newDataset(t.url, owner.key, { dataset_name: name });
    await rest(t.url, 'PATCH', `/resources/${ds}/metadata`, { key: owner.key, body: { note: name } });
    const viewer = await makeUser(t.app);
    await grant(t.app, ds, 'dataset', 'user', viewer.user.uniqueId, 'viewer');
    expect((await rest(t.url, 'POST', `/resources/${ds}/delete`, { key: viewer.key })).status).toBe(403);
    expect((await rest(t.url, 'POST', `/resources/${ds}/delete`, { key: stranger.key })).status).toBe(404);

    const req = await rest(t.url, 'POST', `/resources/${ds}/delete`, {
      key: owner.key,
      query: { reason: 'duplicate' },
    });
    expect(req.status).toBe(201);
    expect(req.body).toMatchObject({
      id: expect.any(Number),
      resource_id: ds,
      resource_type: 'dataset',
      resource_name: name,
      requester_id: owner.user.uniqueId,
      reason: 'duplicate',
      status: 'pending',
    });
    expect((await rest(t.url, 'POST', `/resources/${ds}/delete`, { key: owner.key })).status).toBe(409);
    // the reason may come in a JSON body too; unknown body fields are refused
    const other = await newDataset(t.url, owner.key, { dataset_name: `${name} 2` });
    const unknownField = await rest(t.url, 'POST', `/resources/${other}/delete`, {
      key: owner.key,
      body: { reason: 'x', because: 'y' },
    });
    expect(unknownField.status).toBe(422);
    expect(unknownField.body.fields[0].field).toBe('because');
    const fromBody = await rest(t.url, 'POST', `/resources/${other}/delete`, {
      key: owner.key,
      body: { reason: 'superseded' },
    });
    expect(fromBody.status).toBe(201);
    expect(fromBody.body.reason).toBe('superseded');

    const list = await rest(t.url, 'GET', '/datasets', { key: owner.key, query: { dataset_name: name } });
    expect(list.body.total).toBe(0);
    const search = await rest(t.url, 'GET', '/datasets/search', { key: owner.key, query: { q: name } });
    expect(search.body).toEqual([]);
    const mdSearch = await rest(t.url, 'GET', '/resources/metadata/search', {
      key: owner.key,
      query: { q: name },
    });
    expect(mdSearch.body.items).toEqual([]);
    const read = await rest(t.url, 'GET', `/datasets/${ds}`, { key: owner.key });
    expect(read.status).toBe(200);
    expect(read.body.deletion_request).toMatchObject({
      id: req.body.id,
      status: 'pending',
      reason: 'duplicate',
    });
    expect((await rest(t.url, 'GET', `/entity_graph_cte/${ds}`, { key: owner.key })).status).toBe(200);

    // only platform admins review; the requester lists their own requests
    const own = await rest(t.url, 'GET', '/deletion_requests', {
      key: owner.key,
      query: { status: 'pending' },
    });
    expect(own.status).toBe(200);
    expect(
      own.body.items.every((r: { requester_id: string }) => r.requester_id === owner.user.uniqueId),
    ).toBe(true);
    const pending = await rest(t.url, 'GET', '/deletion_requests', {
      key: admin.key,
      query: { status: 'pending' },
    });
    expect(pending.body.items.map((r: { id: number }) => r.id)).toContain(req.body.id);
    expect(typeof pending.body.total).toBe('number');
    expect(
      (await rest(t.url, 'GET', `/deletion_requests/${req.body.id}`, { key: admin.key })).body.status,
    ).toBe('pending');
    expect((await rest(t.url, 'GET', '/deletion_requests/x', { key: admin.key })).status).toBe(422);
    expect((await rest(t.url, 'GET', '/deletion_requests/999999999', { key: admin.key })).status).toBe(404);
    const bad = await rest(t.url, 'PATCH', `/deletion_requests/${req.body.id}`, {
      key: admin.key,
      query: { status: 'maybe' },
    });
    expect(bad.status).toBe(422);

    const rejected = await rest(t.url, 'PATCH', `/deletion_requests/${req.body.id}`, {
      key: admin.key,
      query: { status: 'rejected', reviewer_notes: 'keep it' },
    });
    expect(rejected.body).toMatchObject({
      status: 'rejected',
      reviewer_id: admin.user.uniqueId,
      reviewer_notes: 'keep it',
    });
    expect(
      (
        await rest(t.url, 'PATCH', `/deletion_requests/${req.body.id}`, {
          key: admin.key,
          query: { status: 'approved' },
        })
      ).status,
    ).toBe(409);
    // rejection restores it
    expect(
      (await rest(t.url, 'GET', '/datasets', { key: owner.key, query: { dataset_name: name } })).body.total,
    ).toBe(1);
    expect(
      (await rest(t.url, 'GET', `/datasets/${ds}`, { key: owner.key })).body.deletion_request,
    ).toBeNull();
  });

  test('approval removes the resource with its links, grants, metadata, keywords; the audit survives', async () => {
    const ds = await newDataset(t.url, owner.key, { dataset_name: 'to remove' });
    const child = await newDataset(t.url, owner.key);
    const sample = await newSample(t.url, owner.key);
    await rest(t.url, 'POST', `/datasets/${ds}/children/${child}`, { key: owner.key });
    await rest(t.url, 'POST', `/datasets/${ds}/samples/${sample}`, { key: owner.key });
    await rest(t.url, 'PATCH', `/resources/${ds}/metadata`, { key: owner.key, body: { a: 1 } });
    await rest(t.url, 'POST', `/datasets/${ds}/keywords`, {
      key: owner.key,
      query: { keyword: unique('kw') },
    });
    await grant(t.app, ds, 'dataset', 'user', stranger.user.uniqueId, 'viewer');

    const calls: string[] = [];
    t.app.services.deletion.removal.register({
      name: 'test objects',
      types: ['dataset'],
      phase: 'dependents',
      remove: (tx, target) => {
        calls.push(`rows:${target.uniqueId}`);
        return Promise.resolve(async () => {
          // runs after commit: the dataset row is gone by now
          calls.push(
            `objects:${target.uniqueId}:${await count('dataset', 'unique_id = ?', target.uniqueId)}`,
          );
        });
      },
    });

    const req = await rest(t.url, 'POST', `/resources/${ds}/delete`, {
      key: owner.key,
      query: { reason: 'bad run' },
    });
    const approved = await rest(t.url, 'PATCH', `/deletion_requests/${req.body.id}`, {
      key: admin.key,
      query: { status: 'approved', reviewer_notes: 'ok' },
    });
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('approved');
    expect(calls).toEqual([`rows:${ds}`, `objects:${ds}:0`]);
    expect((await rest(t.url, 'GET', `/datasets/${ds}`, { key: owner.key })).status).toBe(404);
    expect(await count('dataset_link', 'parent_mfid = ?', ds)).toBe(0);
    expect(await count('dataset_sample', 'dataset_mfid = ?', ds)).toBe(0);
    expect(await count('scientific_metadata', 'resource_id = ?', ds)).toBe(0);
    expect(await count('access_grant', 'resource_id = ?', ds)).toBe(0);
    expect(await count('dataset_keyword', 'dataset_mfid = ?', ds)).toBe(0);
    expect((await rest(t.url, 'GET', `/datasets/${child}`, { key: owner.key })).status).toBe(200);
    expect((await rest(t.url, 'GET', `/samples/${sample}`, { key: owner.key })).body.datasets).toEqual([]);

    const audit = await rest(t.url, 'GET', '/deletion_audit', { key: admin.key, query: { resource_id: ds } });
    expect(audit.body.total).toBe(1);
    const entry = audit.body.items[0];
    expect(entry).toMatchObject({
      id: expect.any(Number),
      request_id: req.body.id,
      resource_id: ds,
      resource_type: 'dataset',
      resource_name: 'to remove',
      requester_id: owner.user.uniqueId,
      reason: 'bad run',
      reviewer_id: admin.user.uniqueId,
      reviewer_notes: 'ok',
    });
    expect((await rest(t.url, 'GET', `/deletion_audit/${entry.id}`, { key: admin.key })).body.id).toBe(
      entry.id,
    );
    expect((await rest(t.url, 'GET', `/deletion_audit/${entry.id}`, { key: owner.key })).status).toBe(403);
    expect((await rest(t.url, 'GET', '/deletion_audit/999999999', { key: admin.key })).status).toBe(404);
  });

  test('approval deletes the files, thumbnails and their objects from storage', async () => {
    const ds = await newDataset(t.url, owner.key, { dataset_name: 'with files' });
    const up = await formUpload(t.url, owner.key, ds, [
      { name: 'a.txt', data: Buffer.from('file bytes to delete') },
    ]);
    expect(up.status).toBe(201);
    const thumb = await rest(t.url, 'POST', `/datasets/${ds}/thumbnails`, {
      key: owner.key,
      body: { thumbnail_name: 'p.png', thumbnail_b64str: PIXEL_PNG },
    });
    expect(thumb.status).toBeLessThan(300);
    const [file] = await rawQuery<{ storage_key: string }>(
      t.app.orm.em.fork(),
      'select storage_key from associated_file where dataset_mfid = ?',
      [ds],
    );
    expect(await t.app.services.file.store.head(file.storage_key)).not.toBeNull();

    const req = await rest(t.url, 'POST', `/resources/${ds}/delete`, {
      key: owner.key,
      query: { reason: 'done' },
    });
    const approved = await rest(t.url, 'PATCH', `/deletion_requests/${req.body.id}`, {
      key: admin.key,
      query: { status: 'approved' },
    });
    expect(approved.status).toBe(200);
    expect(await count('associated_file', 'dataset_mfid = ?', ds)).toBe(0);
    expect(await count('thumbnail', 'dataset_mfid = ?', ds)).toBe(0);
    expect(await count('dataset', 'unique_id = ?', ds)).toBe(0);
    expect(await t.app.services.file.store.head(file.storage_key)).toBeNull();
  });

  test('a failing removal hook rolls everything back', async () => {
    const sample = await newSample(t.url, owner.key);
    t.app.services.deletion.removal.register({
      name: 'failing',
      types: ['sample'],
      phase: 'dependents',
      remove: (_tx, target) =>
        target.uniqueId === sample ? Promise.reject(new Error('storage is down')) : Promise.resolve(),
    });
    const req = await rest(t.url, 'POST', `/resources/${sample}/delete`, { key: owner.key });
    const res = await rest(t.url, 'PATCH', `/deletion_requests/${req.body.id}`, {
      key: admin.key,
      query: { status: 'approved' },
    });
    expect(res.status).toBe(500);
    expect((await rest(t.url, 'GET', `/samples/${sample}`, { key: owner.key })).status).toBe(200);
    expect(
      (await rest(t.url, 'GET', `/deletion_requests/${req.body.id}`, { key: admin.key })).body.status,
    ).toBe('pending');
  });

  test('DELETE /resources/{id}: admins only, 409 without an approved request unless force, idempotent', async () => {
    const sample = await newSample(t.url, owner.key, { sample_name: 'forced' });
    expect((await rest(t.url, 'DELETE', `/resources/${sample}`, { key: owner.key })).status).toBe(403);
    expect((await rest(t.url, 'DELETE', `/resources/${sample}`, { key: admin.key })).status).toBe(409);
    const req = await rest(t.url, 'POST', `/resources/${sample}/delete`, { key: owner.key });
    const forced = await rest(t.url, 'DELETE', `/resources/${sample}`, {
      key: admin.key,
      query: { force: 'True' },
    });
    expect(forced.body).toEqual({ detail: `Resource ${sample} permanently deleted` });
    expect(
      (await rest(t.url, 'GET', `/deletion_requests/${req.body.id}`, { key: admin.key })).body.status,
    ).toBe('approved');
    // deleting what is already gone (the 3.1 client approves, then deletes) succeeds and says so
    const again = await rest(t.url, 'DELETE', `/resources/${sample}`, { key: admin.key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ detail: `Resource ${sample} was already deleted (see the audit)` });
    // what never existed is 404
    expect((await rest(t.url, 'DELETE', `/resources/${newMfid()}`, { key: admin.key })).status).toBe(404);
    const audit = await rest(t.url, 'GET', '/deletion_audit', {
      key: admin.key,
      query: { resource_id: sample },
    });
    expect(audit.body.items[0]).toMatchObject({ resource_name: 'forced', resource_type: 'sample' });
    const project = await rest(t.url, 'POST', '/projects', {
      key: admin.key,
      body: { project_id: unique('p') },
    });
    expect(
      (await rest(t.url, 'POST', `/resources/${project.body.unique_id}/delete`, { key: admin.key })).status,
    ).toBe(422);
  });

  test('GraphQL: request, list and review', async () => {
    const ds = await newDataset(t.url, owner.key);
    const asked = await gql(
      t.url,
      owner.key,
      `mutation($id: ID!) { requestDeletion(id: $id, reason: "gone") { id status resourceId } }`,
      { id: ds },
    );
    expect(asked.data.requestDeletion).toMatchObject({ status: 'pending', resourceId: ds });
    const seen = await gql(
      t.url,
      owner.key,
      `query($id: ID!) { dataset(id: $id) { deletionRequest { reason } } }`,
      { id: ds },
    );
    expect(seen.data.dataset.deletionRequest).toEqual({ reason: 'gone' });
    // the requester lists their own; a stranger none
    const own = await gql(t.url, owner.key, `{ deletionRequests(first: 5) { totalCount } }`);
    expect(own.data.deletionRequests.totalCount).toBeGreaterThan(0);
    const none = await gql(t.url, stranger.key, `{ deletionRequests(first: 5) { totalCount } }`);
    expect(none.data.deletionRequests.totalCount).toBe(0);
    const listed = await gql(
      t.url,
      admin.key,
      `{ deletionRequests(first: 1, status: "pending") { totalCount nodes { id } pageInfo { hasNextPage endCursor } } }`,
    );
    expect(listed.data.deletionRequests.nodes).toHaveLength(1);
    const reviewed = await gql(
      t.url,
      admin.key,
      `mutation($id: Int!) { reviewDeletionRequest(id: $id, approve: true) { status } }`,
      { id: asked.data.requestDeletion.id },
    );
    expect(reviewed.data.reviewDeletionRequest.status).toBe('approved');
    const audit = await gql(
      t.url,
      admin.key,
      `query($r: String) { deletionAudit(resourceId: $r) { nodes { resourceId } } }`,
      {
        r: ds,
      },
    );
    expect(audit.data.deletionAudit.nodes).toEqual([{ resourceId: ds }]);
  });
});
