import type { EntityManager } from '@mikro-orm/postgresql';
import { startTestApp, type TestApp } from '../support/app';
import { rest, type Reply } from '../support/http';
import { addMember, makeProject, makeUser, type TestUser } from '../support/factories';
import { newDataset } from '../support/catalog';
import { rawQuery } from '../../src/core/db/raw';
import { onServer } from '../support/pg-server';

/**
 * Grant changes racing ownership transfer and project reassignment. The window is widened
 * deterministically: a second connection holds the record's row lock (the lock transfer and
 * reassignment take) while the grant request is in flight, moves the ownership or the project
 * with the statement the workflow uses, and commits. The grant, checked against the record as it
 * was, must not land: its check and its write share one transaction under that lock.
 *
 * Runs on a PostgreSQL server (CI's pass, or `scripts/pg-up.sh`): the embedded database runs
 * one transaction at a time, so a lock held from a second connection stalls every request.
 */
const serverPass = onServer;
const maybe = serverPass ? test : test.skip;
let t: TestApp;
let owner: TestUser;
let heir: TestUser;
let grantee: TestUser;
let projectAdmin: TestUser;

beforeAll(async () => {
  if (!serverPass) return;
  // the held lock, the request and its transaction each need a connection
  t = await startTestApp({ DB_POOL_MAX: '10' });
  [owner, heir, grantee, projectAdmin] = await Promise.all([
    makeUser(t.app),
    makeUser(t.app),
    makeUser(t.app),
    makeUser(t.app),
  ]);
});
afterAll(() => t?.close());

const grantsOf = async (id: string) =>
  rawQuery<{ principal_id: string }>(
    t.app.orm.em.fork(),
    'select principal_id from access_grant where resource_id = ?',
    [id],
  );

/** Whether some statement waits for a lock (the in-flight request reached the held row lock). */
async function someoneWaits(): Promise<boolean> {
  const rows = await rawQuery<{ n: number }>(
    t.app.orm.em.fork(),
    'select count(*)::int as n from pg_locks where not granted',
  );
  return rows[0].n > 0;
}

/**
 * Holds the dataset's row lock, sends `request`, waits until it either waits for the lock or
 * has answered, applies `change` under the lock, commits, and returns the request's answer.
 */
async function underLock(
  id: string,
  request: () => Promise<Reply>,
  change: (tx: EntityManager) => Promise<void>,
): Promise<Reply> {
  const em = t.app.orm.em.fork();
  await em.begin();
  try {
    await em.execute('select 1 from dataset where unique_id = ? for update', [id]);
    let answered = false;
    const inFlight = request().finally(() => (answered = true));
    for (let i = 0; i < 200 && !answered && !(await someoneWaits()); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await change(em);
    await em.commit();
    return await inFlight;
  } catch (err) {
    await em.rollback();
    throw err;
  }
}

const put = (key: string, id: string, user: string) =>
  rest(t.url, 'PUT', `/resources/${id}/access/users/${user}`, { key, body: { permission: 'viewer' } });
const del = (key: string, id: string, user: string) =>
  rest(t.url, 'DELETE', `/resources/${id}/access/users/${user}`, { key });

maybe('a grant sent by the owner does not land after the ownership moved', async () => {
  const ds = await newDataset(t.url, owner.key);
  const answer = await underLock(
    ds,
    () => put(owner.key, ds, grantee.user.uniqueId),
    (tx) => t.app.services.resource.setOwnerIn(tx, 'dataset', ds, heir.user.uniqueId),
  );
  // checked again under the lock: the former owner may no longer read the private dataset
  expect(answer.status).toBe(404);
  expect(answer.body.detail).toBe(`Resource ${ds} not found`);
  expect(await grantsOf(ds)).toEqual([]);
  // the new owner may grant
  expect((await put(heir.key, ds, grantee.user.uniqueId)).status).toBe(200);
  expect(await grantsOf(ds)).toEqual([{ principal_id: grantee.user.uniqueId }]);
});

maybe('a revoke sent by the owner does not land after the ownership moved', async () => {
  const ds = await newDataset(t.url, owner.key);
  expect((await put(owner.key, ds, grantee.user.uniqueId)).status).toBe(200);
  const answer = await underLock(
    ds,
    () => del(owner.key, ds, grantee.user.uniqueId),
    (tx) => t.app.services.resource.setOwnerIn(tx, 'dataset', ds, heir.user.uniqueId),
  );
  expect(answer.status).toBe(404);
  expect(await grantsOf(ds)).toEqual([{ principal_id: grantee.user.uniqueId }]);
});

maybe('a grant sent by a project admin does not land after the record left the project', async () => {
  const home = await makeProject(t.app, owner.user);
  const elsewhere = await makeProject(t.app, owner.user);
  await addMember(t.app, home, projectAdmin.user, 'admin');
  const ds = await newDataset(t.url, owner.key, { project_id: home.projectId });
  const answer = await underLock(
    ds,
    () => put(projectAdmin.key, ds, grantee.user.uniqueId),
    (tx) => t.app.services.resource.setProjectIn(tx, 'dataset', ds, elsewhere.uniqueId),
  );
  expect(answer.status).toBe(404);
  expect(await grantsOf(ds)).toEqual([]);
});

maybe('without a race, grants land as before', async () => {
  const ds = await newDataset(t.url, owner.key);
  const answer = await underLock(
    ds,
    () => put(owner.key, ds, grantee.user.uniqueId),
    async () => {},
  );
  expect(answer.status).toBe(200);
  expect(await grantsOf(ds)).toEqual([{ principal_id: grantee.user.uniqueId }]);
});

maybe('making a record public does not land after the ownership moved', async () => {
  const ds = await newDataset(t.url, owner.key);
  const answer = await underLock(
    ds,
    () => rest(t.url, 'POST', `/resources/${ds}/public`, { key: owner.key }),
    (tx) => t.app.services.resource.setOwnerIn(tx, 'dataset', ds, heir.user.uniqueId),
  );
  expect(answer.status).toBe(404);
  const rows = await rawQuery<{ public: boolean }>(
    t.app.orm.em.fork(),
    'select public from dataset where unique_id = ?',
    [ds],
  );
  expect(rows).toEqual([{ public: false }]);
});

maybe('PUT …/access/public (the 3.2 client) does not land after the ownership moved', async () => {
  const ds = await newDataset(t.url, owner.key);
  const answer = await underLock(
    ds,
    () => rest(t.url, 'PUT', `/resources/${ds}/access/public`, { key: owner.key, version: 3 }),
    (tx) => t.app.services.resource.setOwnerIn(tx, 'dataset', ds, heir.user.uniqueId),
  );
  expect(answer.status).toBe(404);
  const rows = await rawQuery<{ public: boolean }>(
    t.app.orm.em.fork(),
    'select public from dataset where unique_id = ?',
    [ds],
  );
  expect(rows).toEqual([{ public: false }]);
});

maybe('an instrument assigned by the owner does not land after the ownership moved', async () => {
  const ds = await newDataset(t.url, owner.key);
  const admin = await makeUser(t.app, { admin: true });
  const made = await rest(t.url, 'POST', '/instruments', {
    key: admin.key,
    body: { instrument_name: `race ${ds}`, owner: admin.user.uniqueId },
  });
  expect(made.status).toBe(201);
  const mfid = made.body.unique_id as string;
  const answer = await underLock(
    ds,
    () =>
      rest(t.url, 'PUT', `/datasets/${ds}/instrument`, {
        key: owner.key,
        version: 3,
        body: { instrument_mfid: mfid },
      }),
    (tx) => t.app.services.resource.setOwnerIn(tx, 'dataset', ds, heir.user.uniqueId),
  );
  expect([answer.status, answer.body.detail]).toEqual([404, `Dataset ${ds} not found`]);
  const rows = await rawQuery<{ instrument_mfid: string | null }>(
    t.app.orm.em.fork(),
    'select instrument_mfid from dataset where unique_id = ?',
    [ds],
  );
  expect(rows).toEqual([{ instrument_mfid: null }]);
});
