import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';
import { newMfid } from '../../src/core/ids';
import { FIND_COLLISIONS } from '../../migrations/Migration20261126090000_issued_mfid';

/**
 * An MFID names one record, forever: the probe's takeover chains (a dataset over another user's
 * sample, a sample over a dataset, a removed record's MFID created again) are refused with one
 * answer ("taken") whatever holds or held the MFID, and the owner's record is untouched.
 */
let t: TestApp;
let admin: TestUser;
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  bob = await makeUser(t.app);
  carol = await makeUser(t.app);
});

afterAll(async () => {
  await t.close();
});

const createDataset = (key: string, uniqueId: string) =>
  rest(t.url, 'POST', '/datasets', { key, body: { dataset_name: 'mine', unique_id: uniqueId } });
const createSample = (key: string, uniqueId: string) =>
  rest(t.url, 'POST', '/samples', { key, body: { sample_name: 'mine', unique_id: uniqueId } });

function expectTaken(res: { status: number; body: Record<string, unknown> }, id: string): void {
  expect(res.status).toBe(409);
  expect(JSON.stringify(res.body)).toContain(`unique_id ${id} is taken`);
  expect(JSON.stringify(res.body)).not.toMatch(/dataset|sample|removed|deleted/i);
}

async function removeByAdmin(id: string, owner: TestUser): Promise<void> {
  const req = await rest(t.url, 'POST', `/resources/${id}/delete`, {
    key: owner.key,
    query: { reason: 'x' },
  });
  expect(req.status).toBe(201);
  const done = await rest(t.url, 'PATCH', `/deletion_requests/${req.body.id}`, {
    key: admin.key,
    query: { status: 'approved' },
  });
  expect(done.status).toBe(200);
  expect((await rest(t.url, 'GET', `/datasets/${id}`, { key: admin.key })).status).toBe(404);
}

test("a dataset over another user's private sample is refused; her metadata stays hers", async () => {
  const sample = await newSample(t.url, carol.key, { scientific_metadata: { secret: 'alloy 42' } });

  expectTaken(await createDataset(bob.key, sample), sample);
  const viaGraphql = await gql(
    t.url,
    bob.key,
    'mutation($id: String) { createDataset(input: { datasetName: "mine", uniqueId: $id }) { uniqueId } }',
    { id: sample },
  );
  expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('CONFLICT');
  expect(viaGraphql.errors?.[0]?.message).toBe(`unique_id ${sample} is taken`);

  const read = await rest(t.url, 'GET', `/resources/${sample}/metadata`, { key: bob.key });
  expect(read.status).toBe(404);
  expect(JSON.stringify(read.body)).not.toContain('alloy');
  const write = await rest(t.url, 'POST', `/resources/${sample}/metadata`, {
    key: bob.key,
    body: { secret: 'tampered' },
  });
  expect(write.status).toBe(404);

  const hers = await rest(t.url, 'GET', `/resources/${sample}/metadata`, { key: carol.key });
  expect(hers.status).toBe(200);
  expect(JSON.stringify(hers.body)).toContain('alloy 42');
  expect((await rest(t.url, 'GET', `/resources/${sample}`, { key: carol.key })).status).toBe(200);
  expect((await rest(t.url, 'GET', `/samples/${sample}`, { key: carol.key })).body.unique_id).toBe(sample);
});

test("a sample over a dataset's MFID is refused (REST and GraphQL), whoever asks", async () => {
  const ds = await newDataset(t.url, carol.key, { scientific_metadata: { secret: 'beam 7' } });
  expectTaken(await createSample(bob.key, ds), ds);
  // the owner herself cannot reuse it for another kind either
  expectTaken(await createSample(carol.key, ds), ds);
  const viaGraphql = await gql(
    t.url,
    bob.key,
    'mutation($id: String) { createSample(input: { sampleName: "mine", uniqueId: $id }) { uniqueId scientificMetadata } }',
    { id: ds },
  );
  expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('CONFLICT');
  expect(JSON.stringify(viaGraphql)).not.toContain('beam 7');
  const hers = await rest(t.url, 'GET', `/datasets/${ds}`, {
    key: carol.key,
    query: { include_metadata: true },
  });
  expect(JSON.stringify(hers.body)).toContain('beam 7');
});

test("a removed dataset's MFID is never issued again; its history stays unread", async () => {
  const ds = await newDataset(t.url, carol.key, { scientific_metadata: { secret: 'gone' } });
  await rest(t.url, 'POST', `/resources/${ds}/metadata`, { key: carol.key, body: { secret: 'gone 2' } });
  await removeByAdmin(ds, carol);

  expectTaken(await createDataset(bob.key, ds), ds);
  expectTaken(await createSample(bob.key, ds), ds);
  expectTaken(await createDataset(carol.key, ds), ds);
  const history = await rest(t.url, 'GET', `/resources/${ds}/history`, { key: bob.key });
  expect(history.status).toBe(404);
  expect(JSON.stringify(history.body)).not.toContain('gone');
});

test('the same answer for a free-looking MFID held by an unreadable, a readable or a removed record', async () => {
  const mine = await newDataset(t.url, bob.key);
  const hidden = await newDataset(t.url, carol.key);
  const removed = await newDataset(t.url, carol.key);
  await removeByAdmin(removed, carol);
  const bodies = [];
  for (const id of [mine, hidden, removed]) {
    const res = await createDataset(bob.key, id);
    expectTaken(res, id);
    bodies.push(JSON.stringify(res.body).replace(id, '<id>'));
  }
  expect(new Set(bodies).size).toBe(1);
  // a user, a file, a project: every kind's MFIDs are issued once
  const fresh = newMfid();
  expect((await createDataset(bob.key, fresh)).status).toBe(201);
  expectTaken(await createDataset(bob.key, bob.user.uniqueId), bob.user.uniqueId);
});

test('of two concurrent creates with one MFID, exactly one wins (any mix of kinds)', async () => {
  for (let round = 0; round < 5; round++) {
    const id = newMfid();
    const results = await Promise.all([
      createDataset(bob.key, id),
      createSample(carol.key, id),
      createDataset(carol.key, id),
      createSample(bob.key, id),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
  }
});

test("the migration's collision finder names every MFID a database held for more than one record", async () => {
  const sample = await newSample(t.url, carol.key);
  const recreated = await newDataset(t.url, carol.key);
  const overRemoved = newMfid();
  const knex = t.app.orm.em.getConnection().getKnex();
  const found = await knex
    .transaction(async (trx) => {
      // as a database written before MFIDs were issued once: no triggers, no foreign keys
      await trx.raw('set local session_replication_role = replica');
      await trx.raw(`insert into dataset (unique_id, owner_id, dataset_name) values (?, ?, 'bob''s')`, [
        sample,
        bob.user.uniqueId,
      ]);
      const event = (type: string, id: string, kind: string) =>
        trx.raw(
          `insert into domain_event (event_id, type, resource_id, resource_type, payload) values (?, ?, ?, ?, '{}')`,
          [newMfid(), type, id, kind],
        );
      await event('resource.removed', recreated, 'dataset');
      await event('dataset.created', recreated, 'dataset');
      await event('sample.created', overRemoved, 'sample');
      await event('resource.removed', overRemoved, 'sample');
      await trx.raw(`insert into dataset (unique_id, owner_id) values (?, ?)`, [
        overRemoved,
        bob.user.uniqueId,
      ]);
      const rows = await trx.raw<{ rows: { mfid: string; detail: string }[] }>(
        `select * from (${FIND_COLLISIONS}) c where mfid in (?, ?, ?) order by mfid`,
        [sample, recreated, overRemoved],
      );
      throw Object.assign(new Error('rollback'), { rows: rows.rows });
    })
    .catch((err: { rows?: { mfid: string; detail: string }[] }) => {
      if (!err.rows) throw err;
      return err.rows;
    });
  expect(Object.fromEntries(found.map((r) => [r.mfid, r.detail]))).toEqual({
    [sample]: 'dataset, sample',
    [recreated]: 'dataset, removed dataset',
    [overRemoved]: 'dataset, removed sample',
  });
});
