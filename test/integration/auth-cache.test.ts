import pg from 'pg';
import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { addMember, grant, makeProject, makeUser, type TestUser } from '../support/factories';
import { rawQuery } from '../../src/core/db/raw';
import { hashApiKey } from '../../src/core/auth/api-keys';

/**
 * The authentication cache (docs/operations.md, "Authentication cache"): a key seen within the
 * TTL runs no statement; a change made through a replica takes effect there at once; a change
 * made by any other process (here: a client of its own, as the admin command line or another
 * replica on a PostgreSQL server) takes effect everywhere within the TTL.
 */
const TTL = 1000;
let a: TestApp;
let b: TestApp;
/** a replica whose entries outlive any pause of a loaded machine: what it caches, it keeps */
let c: TestApp;
let other: pg.Client;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const status = async (t: TestApp, key: string) => (await rest(t.url, 'GET', '/account', { key })).status;
const onKeys = (t: TestApp) => t.queries.filter((q) => /\bfrom api_key\b/.test(q));

beforeAll(async () => {
  a = await startTestApp({ AUTH_CACHE_TTL_MS: String(TTL) });
  b = await startTestApp({ AUTH_CACHE_TTL_MS: String(TTL) });
  c = await startTestApp({ AUTH_CACHE_TTL_MS: '60000' });
  other = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await other.connect();
});
afterAll(async () => {
  await other.end();
  await Promise.all([a.close(), b.close(), c.close()]);
});

test('a key seen within the TTL runs no authentication statement; unknown keys are never cached', async () => {
  const u = await makeUser(a.app);
  // made now: making a user is a write to the authentication tables, which empties the caches
  const v = await makeUser(a.app);
  expect(await status(c, u.key)).toBe(200);
  c.queries.length = 0;
  expect(await status(c, u.key)).toBe(200);
  expect(onKeys(c)).toEqual([]);
  for (let i = 0; i < 2; i++)
    expect(await status(c, 'cat_unknownkeyunknownkeyunknownkeyunknownkey1')).toBe(401);
  expect(onKeys(c)).toHaveLength(2);
  // another key's first request writes its last_used_at: that bookkeeping keeps the cache
  expect(await status(c, v.key)).toBe(200);
  expect(c.queries.some((q) => /update "api_key" set "last_used_at"/.test(q))).toBe(true);
  c.queries.length = 0;
  expect(await status(c, u.key)).toBe(200);
  expect(onKeys(c)).toEqual([]);
});

test('revoked through a replica: refused there at once; by another process: within the TTL', async () => {
  const mine = await makeUser(a.app);
  expect(await status(a, mine.key)).toBe(200);
  expect(await status(a, mine.key)).toBe(200); // cached
  const prefix = mine.key.slice(0, 10);
  await a.app.services.apiKeyAdmin.revokeKey(a.app.orm.em.fork(), prefix);
  expect(await status(a, mine.key)).toBe(401);

  const theirs = await makeUser(a.app);
  expect(await status(b, theirs.key)).toBe(200);
  await other.query('update api_key set revoked_at = now() where hash = $1', [hashApiKey(theirs.key)]);
  await sleep(TTL);
  expect(await status(b, theirs.key)).toBe(401);
  expect((await gql(b.url, theirs.key, '{ me { uniqueId } }')).status).toBe(401);
});

test('a disabled user: refused at once on the replica that disabled it, within the TTL elsewhere', async () => {
  const u = await makeUser(a.app);
  expect(await status(a, u.key)).toBe(200);
  expect(await status(b, u.key)).toBe(200);
  const em = a.app.orm.em.fork();
  const user = await a.app.services.user.get(em, u.user.uniqueId);
  await a.app.services.userAdmin.setDisabled(em, user!, true);
  expect(await status(a, u.key)).toBe(401);
  const v = await makeUser(a.app);
  expect(await status(b, v.key)).toBe(200);
  await other.query('update app_user set disabled_at = now() where unique_id = $1', [v.user.uniqueId]);
  await sleep(TTL);
  expect(await status(b, v.key)).toBe(401);
});

test('an expiring key is not served from the cache past its expiry', async () => {
  const u: TestUser = await makeUser(a.app);
  await other.query(`update api_key set expires_at = now() + interval '400 milliseconds' where hash = $1`, [
    hashApiKey(u.key),
  ]);
  expect(await status(b, u.key)).toBe(200);
  await sleep(500);
  expect(await status(b, u.key)).toBe(401);
});

test('a membership change reaches the access scope: at once on its replica, within the TTL elsewhere', async () => {
  const lead = await makeUser(a.app);
  const u = await makeUser(a.app);
  const project = await makeProject(a.app, lead.user);
  const created = await rest(a.url, 'POST', '/datasets', {
    key: lead.key,
    body: { dataset_name: 'members only', project_mfid: project.uniqueId },
  });
  expect(created.status).toBe(201);
  const path = `/datasets/${created.body.unique_id as string}`;
  expect((await rest(a.url, 'GET', path, { key: u.key })).status).toBe(404);
  expect((await rest(b.url, 'GET', path, { key: u.key })).status).toBe(404);
  await addMember(a.app, project, u.user, 'viewer'); // through replica a's own connections
  expect((await rest(a.url, 'GET', path, { key: u.key })).status).toBe(200);
  await other.query('delete from project_member where project_mfid = $1 and user_id = $2', [
    project.uniqueId,
    u.user.uniqueId,
  ]);
  await sleep(TTL);
  expect((await rest(b.url, 'GET', path, { key: u.key })).status).toBe(404);
});

test('grants reach lists: at once on the replica that wrote them, within the TTL elsewhere; within the TTL a list reads no grants', async () => {
  const owner = await makeUser(a.app);
  const u = await makeUser(a.app);
  const name = `granted-${u.user.uniqueId}`;
  const created = await rest(a.url, 'POST', '/datasets', { key: owner.key, body: { dataset_name: name } });
  expect(created.status).toBe(201);
  const id = created.body.unique_id as string;
  const listed = async (t: TestApp) =>
    (await rest(t.url, 'GET', '/datasets', { key: u.key, query: { dataset_name: name } })).body
      .total as number;
  const onGrants = (t: TestApp) => t.queries.filter((q) => /\bfrom access_grant g where\b/.test(q));
  expect([await listed(a), await listed(b)]).toEqual([0, 0]);
  await grant(a.app, id, 'dataset', 'user', u.user.uniqueId, 'viewer'); // through replica a
  expect(await listed(a)).toBe(1);
  a.queries.length = 0;
  expect(await listed(a)).toBe(1);
  expect(onGrants(a)).toEqual([]);
  // revoked by another process: within the TTL everywhere
  await other.query('delete from access_grant where resource_id = $1', [id]);
  await sleep(TTL);
  expect([await listed(a), await listed(b)]).toEqual([0, 0]);
  // granted by another process, then revoked through replica a: at once there
  await other.query(
    `insert into access_grant (resource_id, resource_type, principal_type, principal_id, permission)
     values ($1, 'dataset', 'user', $2, 'viewer')`,
    [id, u.user.uniqueId],
  );
  await sleep(TTL);
  expect([await listed(a), await listed(b)]).toEqual([1, 1]);
  await rawQuery(a.app.orm.em.fork(), 'delete from access_grant where resource_id = ?', [id]);
  expect(await listed(a)).toBe(0);
});

test("a cached key's request makes its user's entity only when it is asked for, once, in the request's EntityManager", async () => {
  const u = await makeUser(c.app);
  const usersIn = (ctx: Awaited<ReturnType<typeof c.app.contexts.forRequest>>) =>
    [...ctx.em.getUnitOfWork().getIdentityMap()].filter((e) => e.constructor.name === 'User');
  await c.app.contexts.forRequest('warm', `Bearer ${u.key}`); // fills the cache
  const ctx = await c.app.contexts.forRequest('cached', `Bearer ${u.key}`);
  // what every request reads, with no entity made
  expect(ctx.userId).toBe(u.user.uniqueId);
  expect(ctx.platformRole).toBe(u.user.platformRole);
  expect((await ctx.scope()).userId).toBe(u.user.uniqueId);
  expect(ctx.within(ctx.em).userId).toBe(u.user.uniqueId);
  expect(usersIn(ctx)).toEqual([]);
  // asked for: the same entity each time, also through a copy of the caller, managed by the request's em
  const user = ctx.caller.user;
  expect(user.uniqueId).toBe(u.user.uniqueId);
  expect(user.username).toBe(u.user.username);
  expect(ctx.within(ctx.em).caller.user).toBe(user);
  expect(ctx.caller.user).toBe(user);
  expect(usersIn(ctx)).toEqual([user]);
  // another request gets an entity of its own
  const next = await c.app.contexts.forRequest('next', `Bearer ${u.key}`);
  expect(next.caller.user).not.toBe(user);
});
