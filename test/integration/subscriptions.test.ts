import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { startTestApp, type TestApp } from '../support/app';
import { makeProject, makeUser, type TestUser } from '../support/factories';
import { formUpload } from '../support/files';
import { rest } from '../support/http';
import { drainJobs } from '../support/jobs';

/**
 * GraphQL subscriptions over WebSocket: `resourceEvents` of a resource or a project and
 * `ingestionProgress` of a dataset, fed from the outbox; the key in `connection_init`; the
 * subscriber's access checked per event; the per-key limit; events written through another
 * instance on the same database.
 */
let t: TestApp;
let other: TestApp;
let owner: TestUser;
let viewer: TestUser;
let stranger: TestUser;
const clients: Client[] = [];

beforeAll(async () => {
  const env = {
    SUBSCRIPTION_POLL_INTERVAL_MS: '50',
    SUBSCRIPTIONS_PER_KEY: '3',
    INGEST_PROGRESS_MIN_BYTES: String(1024 * 1024),
    INGEST_PROGRESS_INTERVAL_MS: '0',
  };
  t = await startTestApp(env);
  other = await startTestApp(env);
  [owner, viewer, stranger] = await Promise.all([makeUser(t.app), makeUser(t.app), makeUser(t.app)]);
});
afterAll(async () => {
  for (const c of clients) void c.dispose();
  await other?.close();
  await t?.close();
});

function client(app: TestApp, key: string | null): Client {
  const c = createClient({
    url: `${app.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: key ? { authorization: `Bearer ${key}` } : {},
    retryAttempts: 0,
  });
  clients.push(c);
  return c;
}

interface Event {
  type: string;
  resourceId: string;
  payload: Record<string, unknown>;
}

/** A running subscription: what arrived so far, its error, and a way to wait for more. */
function subscribe(c: Client, query: string, variables: Record<string, unknown>) {
  const events: Event[] = [];
  const state: { error?: unknown; done: boolean } = { done: false };
  const stop = c.subscribe<Record<string, Event>>(
    { query, variables },
    {
      next: (r) => {
        if (r.errors) state.error = r.errors;
        else if (r.data) events.push(Object.values(r.data)[0]);
      },
      error: (err) => {
        state.error = err;
        state.done = true;
      },
      complete: () => {
        state.done = true;
      },
    },
  );
  // a deadline, not a pause: it returns as soon as the event arrives (60 s for a loaded machine)
  const until = async (test: () => boolean, ms = 60_000) => {
    const end = Date.now() + ms;
    while (!test() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
    return test();
  };
  return { events, state, stop, until };
}

const RESOURCE = `subscription($r: ID, $p: ID) { resourceEvents(resource: $r, project: $p) { type resourceId payload } }`;
const INGESTION = `subscription($d: ID!) { ingestionProgress(dataset: $d) { type resourceId payload } }`;

const newDataset = async (name: string, extra: Record<string, unknown> = {}) =>
  (await rest(t.url, 'POST', '/datasets', { key: owner.key, body: { dataset_name: name, ...extra } })).body
    .unique_id as string;
const rename = (id: string, name: string) =>
  rest(t.url, 'PATCH', `/datasets/${id}`, { key: owner.key, body: { dataset_name: name } });
const settle = () => new Promise((r) => setTimeout(r, 400));

test('resourceEvents of a dataset: the owner hears its changes; a stranger gets the same NOT_FOUND as a read', async () => {
  const ds = await newDataset('live one');
  const sub = subscribe(client(t, owner.key), RESOURCE, { r: ds });
  await settle();
  expect((await rename(ds, 'live two')).status).toBe(200);
  expect(await sub.until(() => sub.events.some((e) => e.type === 'dataset.updated'))).toBe(true);
  expect(sub.events.find((e) => e.type === 'dataset.updated')?.resourceId).toBe(ds);

  const denied = subscribe(client(t, stranger.key), RESOURCE, { r: ds });
  expect(await denied.until(() => denied.state.error !== undefined)).toBe(true);
  expect(JSON.stringify(denied.state.error)).toContain('NOT_FOUND');
  const missing = subscribe(client(t, stranger.key), RESOURCE, { r: '0000000000000000000000000a' });
  expect(await missing.until(() => missing.state.error !== undefined)).toBe(true);
  // the same message shape for a record that does not exist and one that may not be read
  expect(JSON.stringify(missing.state.error).replace(/"[^"]*not found[^"]*"/i, 'X')).toBe(
    JSON.stringify(denied.state.error).replace(/"[^"]*not found[^"]*"/i, 'X'),
  );
  sub.stop();
});

test('bad arguments, no key or a bad key are refused', async () => {
  const both = subscribe(client(t, owner.key), RESOURCE, { r: 'a', p: 'b' });
  expect(await both.until(() => both.state.error !== undefined)).toBe(true);
  expect(JSON.stringify(both.state.error)).toContain('BAD_USER_INPUT');
  for (const key of [null, 'cat_not-a-real-key']) {
    const refused = subscribe(client(t, key), RESOURCE, { r: 'a' });
    expect(await refused.until(() => refused.state.done)).toBe(true);
    expect(refused.events).toEqual([]);
    expect(String((refused.state.error as { code?: number }).code)).toBe('4403');
  }
  const query = subscribe(client(t, owner.key), '{ me { uniqueId } }', {});
  expect(await query.until(() => query.state.error !== undefined)).toBe(true);
});

test('a subscriber who loses access stops hearing of the dataset; the owner still does', async () => {
  const ds = await newDataset('shared');
  expect(
    (
      await rest(t.url, 'PUT', `/resources/${ds}/access/users/${viewer.user.uniqueId}`, {
        key: owner.key,
        body: { permission: 'viewer' },
      })
    ).status,
  ).toBeLessThan(300);
  const watcher = subscribe(client(t, viewer.key), RESOURCE, { r: ds });
  const own = subscribe(client(t, owner.key), RESOURCE, { r: ds });
  await settle();
  await rename(ds, 'shared 2');
  expect(await watcher.until(() => watcher.events.some((e) => e.type === 'dataset.updated'))).toBe(true);
  expect(
    (await rest(t.url, 'DELETE', `/resources/${ds}/access/users/${viewer.user.uniqueId}`, { key: owner.key }))
      .status,
  ).toBeLessThan(300);
  const before = watcher.events.length;
  await rename(ds, 'shared 3');
  expect(await own.until(() => own.events.filter((e) => e.type === 'dataset.updated').length >= 2)).toBe(
    true,
  );
  await settle();
  // the revocation's own event is not about something the viewer may read any more either
  expect(watcher.events.slice(before).filter((e) => e.type === 'dataset.updated')).toEqual([]);
  watcher.stop();
  own.stop();
});

test('resourceEvents of a project: events of its datasets', async () => {
  const project = await makeProject(t.app, owner.user);
  const sub = subscribe(client(t, owner.key), RESOURCE, { p: project.uniqueId });
  await settle();
  const ds = await newDataset('in project', { project_id: project.projectId });
  expect(
    await sub.until(() => sub.events.some((e) => e.type === 'dataset.created' && e.resourceId === ds)),
  ).toBe(true);
  sub.stop();
});

test('ingestionProgress: a client sees a large file being read, then complete', async () => {
  const ds = await newDataset('progress');
  const sub = subscribe(client(t, owner.key), INGESTION, { d: ds });
  await settle();
  const lines = ['time,voltage'];
  for (let i = 0; lines.length < 300_000; i++) lines.push(`${i},${(i % 977) / 10}`);
  const data = Buffer.from(lines.join('\n') + '\n');
  expect((await formUpload(t.url, owner.key, ds, [{ name: 'run.csv', data }])).status).toBe(201);
  await drainJobs(t);
  expect(await sub.until(() => sub.events.some((e) => e.type === 'ingestion.complete'))).toBe(true);
  const types = sub.events.map((e) => e.type);
  expect(types[0]).toBe('ingestion.requested');
  const progress = sub.events.filter((e) => e.type === 'ingestion.progress');
  expect(progress.length).toBeGreaterThanOrEqual(2);
  expect((progress[0].payload.bytes_read as number) < data.length).toBe(true);
  expect(types.indexOf('ingestion.progress')).toBeLessThan(types.indexOf('ingestion.complete'));
  sub.stop();
});

test('an event written through another instance reaches a subscriber of this one', async () => {
  const ds = await newDataset('across');
  const sub = subscribe(client(other, owner.key), RESOURCE, { r: ds });
  await settle();
  await rename(ds, 'across 2'); // through t
  expect(await sub.until(() => sub.events.some((e) => e.type === 'dataset.updated'))).toBe(true);
  sub.stop();
});

test('at most SUBSCRIPTIONS_PER_KEY open subscriptions per key', async () => {
  await settle();
  const ds = await newDataset('limit');
  const c = client(t, stranger.key);
  const subs = [1, 2, 3, 4].map(() => subscribe(c, INGESTION, { d: ds }));
  // the stranger may not read the dataset: each of these ends, and frees its place
  for (const s of subs) expect(await s.until(() => s.state.error !== undefined)).toBe(true);
  const own = client(t, viewer.key);
  const mine = await newDataset('viewer can read', { public: true });
  const open = [1, 2, 3].map(() => subscribe(own, RESOURCE, { r: mine }));
  await settle();
  const fourth = subscribe(own, RESOURCE, { r: mine });
  expect(await fourth.until(() => fourth.state.error !== undefined)).toBe(true);
  expect(JSON.stringify(fourth.state.error)).toMatch(/At most 3 open subscriptions/);
  open[0].stop();
  await settle();
  const again = subscribe(own, RESOURCE, { r: mine });
  await settle();
  expect(again.state.error).toBeUndefined();
  for (const s of [...open, again]) s.stop();
});

test("an event naming a record the subscriber may not read arrives without that record's MFID", async () => {
  const admin = await makeUser(t.app, { admin: true });
  const ds = await newDataset('linked');
  const theirs = (
    await rest(t.url, 'POST', '/samples', { key: stranger.key, body: { sample_name: 'private sample' } })
  ).body.unique_id as string;
  const mine = (
    await rest(t.url, 'POST', '/samples', { key: owner.key, body: { sample_name: 'own sample' } })
  ).body.unique_id as string;
  const sub = subscribe(client(t, owner.key), RESOURCE, { r: ds });
  await settle();
  for (const sample of [theirs, mine]) {
    const link = await rest(t.url, 'POST', '/resources/links', {
      key: admin.key,
      body: { parent_mfid: sample, child_mfid: ds },
    });
    expect(link.status).toBeLessThan(300);
  }
  expect(await sub.until(() => sub.events.filter((e) => e.type === 'link.added').length === 2)).toBe(true);
  const links = sub.events.filter((e) => e.type === 'link.added').map((e) => e.payload);
  expect(JSON.stringify(sub.events)).not.toContain(theirs);
  expect(links).toEqual([
    expect.objectContaining({ parent_id: null, child_id: ds }),
    expect.objectContaining({ parent_id: mine, child_id: ds }),
  ]);
  sub.stop();
});

describe('a signed-in page subscribes with its session (no key)', () => {
  async function signIn(key: string): Promise<{ cookie: string; csrf: string }> {
    const res = await fetch(`${t.url}/auth/key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: key }),
    });
    const body = (await res.json()) as { csrf_token: string };
    return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0], csrf: body.csrf_token };
  }

  /** A socket as a browser opens it: the cookie and an Origin on the upgrade. */
  function pageClient(headers: Record<string, string>, params: Record<string, unknown>): Client {
    class PageSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers });
      }
    }
    const c = createClient({
      url: `${t.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: PageSocket,
      connectionParams: params,
      retryAttempts: 0,
    });
    clients.push(c);
    return c;
  }

  // Once failed here because the feed learnt where "now" was only at its first poll, after the
  // rename; the subscription now starts listening before it is answered (EventFeed.listenFromNow),
  // and a session's socket checks its session again per event. The wait below is for the server
  // to hold the subscription, not a pause.
  test('cookie + CSRF token + its own Origin: events; without the token, or from another origin: refused', async () => {
    const s = await signIn(owner.key);
    const ds = await newDataset('page live');
    const feed = t.app.services.eventFeed;
    const before = feed.listenerCount;
    const good = subscribe(
      pageClient({ cookie: s.cookie, origin: t.url }, { 'x-csrf-token': s.csrf }),
      RESOURCE,
      {
        r: ds,
      },
    );
    expect(await good.until(() => feed.listenerCount > before && feed.live)).toBe(true);
    expect((await rename(ds, 'page live 2')).status).toBe(200);
    expect(await good.until(() => good.events.some((e) => e.type === 'dataset.updated'))).toBe(true);
    expect(good.state.error).toBeUndefined();

    for (const [headers, params] of [
      [{ cookie: s.cookie, origin: t.url }, {}],
      [{ cookie: s.cookie, origin: t.url }, { 'x-csrf-token': 'wrong' }],
      [{ cookie: s.cookie, origin: 'http://evil.example' }, { 'x-csrf-token': s.csrf }],
      [{ cookie: s.cookie }, { 'x-csrf-token': s.csrf }],
      [{ origin: t.url }, { 'x-csrf-token': s.csrf }],
    ] as [Record<string, string>, Record<string, unknown>][]) {
      const bad = subscribe(pageClient(headers, params), RESOURCE, { r: ds });
      expect(await bad.until(() => bad.state.done)).toBe(true);
      expect(bad.events).toEqual([]);
      expect((bad.state.error as { code?: number } | undefined)?.code).toBe(4403);
    }
  });
});
