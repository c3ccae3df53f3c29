import sharp from 'sharp';
import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { addMember, grant, makeProject, makeUser, type TestUser } from '../support/factories';
import { formUpload } from '../support/files';
import { newMfid } from '../../src/core/ids';

/**
 * THE EMBARGO MATRIX (docs/access-control.md, "Embargo"): every route that carries bytes × every
 * caller × an embargoed and a lifted dataset (public, so that the embargo is all that closes it),
 * plus a private embargoed one (closed to a stranger exactly as a missing one), a publication's
 * embargo, signed links handed out before and under an embargo, and the moment it opens.
 *
 * Outcomes: `allowed`; 401 (no key); 403 (a readable record whose bytes are closed); 404 (an
 * unreadable record); `left out` (batch and GraphQL list answers that omit what is closed, as
 * they omit what is missing). The rule is `EmbargoGate` (src/modules/access/embargo.ts): a route
 * carrying bytes that does not ask it fails here.
 */

/** `bound`: a service account bound to the datasets' instrument (contributor on them: access-control.md §5a) */
type Caller = 'anonymous' | 'stranger' | 'owner' | 'member' | 'grantee' | 'bound' | 'admin';
const CALLERS: Caller[] = ['anonymous', 'stranger', 'owner', 'member', 'grantee', 'bound', 'admin'];
type Outcome = 'allowed' | 'left out' | 401 | 403 | 404;
/** What a call answered: an outcome, or something unexpected (described). */
type Answer = Exclude<Outcome, 'allowed' | 'left out'> | string;

interface Target {
  dataset: string;
  file: string;
  /** a PNG file of the dataset (image previews) */
  image: string;
  thumbnail: number;
}

let t: TestApp;
const users = {} as Record<Exclude<Caller, 'anonymous'>, TestUser>;
let projectSlug: string;
let instrument: string;
let png: string;
const targets = {} as Record<'embargoed' | 'lifted' | 'private', Target>;

const key = (c: Caller) => (c === 'anonymous' ? null : users[c].key);
const FAR = '2199-01-01T00:00:00Z';
const PAST = '2001-01-01T00:00:00Z';

async function ok<T = any>(reply: Promise<{ status: number; body: T }>): Promise<T> {
  const r = await reply;
  if (r.status >= 300) throw new Error(`setup failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A dataset of the project (the owner's), with a stored file, a thumbnail and a viewer grant. */
async function target(isPublic: boolean, embargo: string | null): Promise<Target> {
  const ds = await ok(
    rest(t.url, 'POST', '/datasets', {
      key: users.owner.key,
      body: {
        dataset_name: 'embargo matrix',
        project_id: projectSlug,
        public: isPublic,
        instrument_mfid: instrument,
      },
    }),
  );
  const dataset = ds.unique_id as string;
  const up = await formUpload(t.url, users.owner.key, dataset, [
    { name: 'e.bin', data: Buffer.from(`bytes of ${dataset}`) },
  ]);
  const image = await formUpload(t.url, users.owner.key, dataset, [
    { name: 'e.png', data: Buffer.from(png, 'base64') },
  ]);
  const thumb = await ok(
    rest(t.url, 'POST', `/datasets/${dataset}/thumbnails`, {
      key: users.owner.key,
      body: { thumbnail_b64str: png },
    }),
  );
  await grant(t.app, dataset, 'dataset', 'user', users.grantee.user.uniqueId, 'viewer');
  if (embargo)
    await ok(
      rest(t.url, 'PUT', `/datasets/${dataset}/embargo`, {
        key: users.owner.key,
        body: { embargo_until: embargo },
      }),
    );
  return {
    dataset,
    file: up.body.mfid as string,
    image: image.body.mfid as string,
    thumbnail: Number(thumb.id),
  };
}

beforeAll(async () => {
  t = await startTestApp();
  for (const c of CALLERS)
    if (c !== 'anonymous')
      users[c] = await makeUser(t.app, { admin: c === 'admin', serviceAccount: c === 'bound' });
  const made = await ok(
    rest(t.url, 'POST', '/instruments', {
      key: users.admin.key,
      body: { instrument_name: `Embargo ${newMfid()}`, owner: users.owner.user.uniqueId },
    }),
  );
  instrument = made.unique_id as string;
  await grant(t.app, instrument, 'instrument', 'user', users.bound.user.uniqueId, 'editor');
  const project = await makeProject(t.app, users.owner.user);
  projectSlug = project.projectId;
  await addMember(t.app, project, users.member.user, 'viewer');
  png = (
    await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 9, g: 8, b: 7 } } })
      .png()
      .toBuffer()
  ).toString('base64');
  targets.embargoed = await target(true, FAR);
  targets.lifted = await target(true, PAST);
  targets.private = await target(false, FAR);
}, 120_000);
afterAll(() => t.close());

/** A signed link as the test reaches it (links name PUBLIC_BASE_URL). */
function reach(link: string): string {
  const u = new URL(link);
  return `${t.url}${u.pathname}${u.search}`;
}

/** A REST answer as an outcome (with the body, to compare refusals). */
async function restOutcome(
  c: Caller,
  method: string,
  path: string,
  opts: { version?: 2 | 3; body?: unknown } = {},
): Promise<{ outcome: Answer; body: unknown }> {
  const r = await rest(t.url, method, path, { key: key(c), ...opts });
  if (r.status < 300) return { outcome: 'allowed', body: r.body };
  const outcome = [401, 403, 404].includes(r.status) ? (r.status as Outcome) : `${r.status}`;
  return { outcome, body: r.body };
}

const CODES: Record<string, Outcome> = { UNAUTHENTICATED: 401, FORBIDDEN: 403, NOT_FOUND: 404 };

async function gqlOutcome(
  c: Caller,
  query: string,
  variables: Record<string, unknown>,
  present: (data: any) => boolean,
): Promise<Answer> {
  const r = await gql(t.url, key(c), query, variables);
  const code = r.errors?.[0]?.extensions?.code;
  if (code) return CODES[code] ?? `${code} ${r.errors?.[0]?.message}`;
  if (r.data === undefined) return 'no data';
  return present(r.data) ? 'allowed' : 'left out';
}

/** Every route that carries bytes, asked of one dataset by one caller. */
const ROUTES: Record<string, (c: Caller, x: Target) => Promise<Answer>> = {
  'GET /api/v2/files/:id/download': async (c, x) =>
    (await restOutcome(c, 'GET', `/files/${x.file}/download`)).outcome,
  'GET /api/v3/files/:id/download': async (c, x) =>
    (await restOutcome(c, 'GET', `/files/${x.file}/download`, { version: 3 })).outcome,
  'GET /files/:id/download_link': async (c, x) =>
    (await restOutcome(c, 'GET', `/files/${x.file}/download_link`)).outcome,
  'GET /files/:id/download_link, then the signed link': async (c, x) => {
    const link = await restOutcome(c, 'GET', `/files/${x.file}/download_link`);
    if (link.outcome !== 'allowed') return link.outcome;
    const res = await fetch(reach((link.body as { url: string }).url));
    await res.arrayBuffer();
    return res.status === 200 ? 'allowed' : `signed link ${res.status}`;
  },
  'GET /datasets/:id/download_links': async (c, x) =>
    (await restOutcome(c, 'GET', `/datasets/${x.dataset}/download_links`)).outcome,
  'GET /datasets/:id/download (zip)': async (c, x) =>
    (await restOutcome(c, 'GET', `/datasets/${x.dataset}/download`)).outcome,
  'GET /datasets/:id/thumbnails': async (c, x) =>
    (await restOutcome(c, 'GET', `/datasets/${x.dataset}/thumbnails`)).outcome,
  'POST /datasets/first_thumbnails': async (c, x) => {
    const r = await restOutcome(c, 'POST', '/datasets/first_thumbnails', { body: [x.dataset] });
    if (r.outcome !== 'allowed') return r.outcome;
    return x.dataset in (r.body as Record<string, unknown>) ? 'allowed' : 'left out';
  },
  'GET /files/:id/preview': async (c, x) => (await restOutcome(c, 'GET', `/files/${x.file}/preview`)).outcome,
  'GET /files/:id/preview/image': async (c, x) =>
    (await restOutcome(c, 'GET', `/files/${x.image}/preview/image`)).outcome,
  'GET /thumbnails/:id/image': async (c, x) =>
    (await restOutcome(c, 'GET', `/thumbnails/${x.thumbnail}/image`)).outcome,
  'GraphQL filePreview': (c, x) =>
    gqlOutcome(c, 'query($f: ID!) { filePreview(file: $f) { kind } }', { f: x.file }, (d) => !!d.filePreview),
  'GraphQL File.downloadUrl': (c, x) =>
    gqlOutcome(
      c,
      'query($id: ID!) { file(id: $id) { downloadUrl } }',
      { id: x.file },
      (d) => !!d.file?.downloadUrl,
    ),
  'GraphQL Dataset.thumbnails { thumbnailB64str }': (c, x) =>
    gqlOutcome(
      c,
      'query($id: ID!) { dataset(id: $id) { thumbnails { thumbnailB64str } } }',
      { id: x.dataset },
      (d) => d.dataset?.thumbnails?.length === 1,
    ),
  'GraphQL Dataset.firstThumbnail': (c, x) =>
    gqlOutcome(
      c,
      'query($id: ID!) { dataset(id: $id) { firstThumbnail { thumbnailB64str } } }',
      { id: x.dataset },
      (d) => !!d.dataset?.firstThumbnail,
    ),
  'GraphQL firstThumbnails': (c, x) =>
    gqlOutcome(
      c,
      'query($ids: [ID!]!) { firstThumbnails(datasetIds: $ids) { datasetId } }',
      { ids: [x.dataset] },
      (d) => d.firstThumbnails.length === 1,
    ),
};

/** Batch and list answers leave closed bytes out (as missing ones); single ones refuse. */
const LISTS = new Set([
  'POST /datasets/first_thumbnails',
  'GraphQL Dataset.thumbnails { thumbnailB64str }',
  'GraphQL Dataset.firstThumbnail',
  'GraphQL firstThumbnails',
]);

function expected(route: string, c: Caller, state: 'embargoed' | 'lifted' | 'private'): Outcome {
  if (c === 'anonymous') return 401;
  if (c === 'stranger' && state !== 'lifted') {
    // a dataset's own fields (GraphQL) need the dataset: a private one is missing
    if (state === 'private' && route.startsWith('GraphQL Dataset.')) return 404;
    if (LISTS.has(route)) return 'left out';
    // a private dataset is unreadable: missing; a public one under embargo: readable, bytes closed
    return state === 'private' ? 404 : 403;
  }
  return 'allowed';
}

describe.each(['embargoed', 'lifted', 'private'] as const)('a %s dataset', (state) => {
  test.each(Object.keys(ROUTES))('%s', async (route) => {
    const wrong: string[] = [];
    for (const c of CALLERS) {
      const got = await ROUTES[route](c, targets[state]);
      const want = expected(route, c, state);
      if (got !== want) wrong.push(`${c}: expected ${want}, got ${got}`);
    }
    expect(wrong).toEqual([]);
  });
});

test('a private embargoed dataset is to a stranger exactly what a missing one is', async () => {
  const x = targets.private;
  const made = { dataset: newMfid(), file: newMfid() };
  const paths = (d: string, f: string) => [
    `/files/${f}/download`,
    `/files/${f}/download_link`,
    `/datasets/${d}/download_links`,
    `/datasets/${d}/download`,
    `/datasets/${d}/thumbnails`,
    `/datasets/${d}/embargo`,
  ];
  const real = paths(x.dataset, x.file);
  const fake = paths(made.dataset, made.file);
  for (let i = 0; i < real.length; i++) {
    const a = await rest(t.url, 'GET', real[i], { key: users.stranger.key });
    const b = await rest(t.url, 'GET', fake[i], { key: users.stranger.key });
    const norm = (body: unknown, ids: string[]) =>
      ids.reduce((s, id) => s.split(id).join('<id>'), JSON.stringify(body));
    expect([real[i], a.status, norm(a.body, [x.dataset, x.file])]).toEqual([
      real[i],
      b.status,
      norm(b.body, [made.dataset, made.file]),
    ]);
  }
});

test('a public embargoed dataset: metadata stays readable, the refusal names the embargo', async () => {
  const x = targets.embargoed;
  expect((await rest(t.url, 'GET', `/datasets/${x.dataset}`, { key: users.stranger.key })).status).toBe(200);
  expect((await rest(t.url, 'GET', `/files/${x.file}`, { key: users.stranger.key })).status).toBe(200);
  const e = await rest(t.url, 'GET', `/datasets/${x.dataset}/embargo`, { key: users.stranger.key });
  expect(e.body).toMatchObject({
    embargo_until: '2199-01-01T00:00:00.000Z',
    embargoed: true,
    bytes_readable: false,
  });
  const owner = await rest(t.url, 'GET', `/datasets/${x.dataset}/embargo`, { key: users.owner.key });
  expect(owner.body).toMatchObject({ embargoed: true, bytes_readable: true });
  const refused = await rest(t.url, 'GET', `/files/${x.file}/download`, { key: users.stranger.key });
  expect(refused.status).toBe(403);
  expect(refused.body.detail).toContain('under embargo until 2199-01-01T00:00:00.000Z');
});

test('setting an embargo: admin on the dataset (403 below, 404 unreadable), a clear 422 for a bad date', async () => {
  const x = targets.lifted;
  const put = (c: Caller, embargo: unknown, id = x.dataset) =>
    rest(t.url, 'PUT', `/datasets/${id}/embargo`, { key: key(c), body: { embargo_until: embargo } });
  expect((await put('grantee', FAR)).status).toBe(403);
  expect((await put('member', FAR)).status).toBe(403);
  expect((await put('stranger', FAR, targets.private.dataset)).status).toBe(404);
  for (const bad of ['tomorrow', '2027-13-01', 42, '2027-01-01T00:00:00', '3000-01-01']) {
    const r = await put('owner', bad);
    expect([bad, r.status, r.body.fields?.[0]?.field]).toEqual([bad, 422, 'embargo_until']);
  }
  // nothing changed: still lifted for the stranger
  expect((await rest(t.url, 'GET', `/files/${x.file}/download`, { key: users.stranger.key })).status).toBe(
    200,
  );
  const g = await gql(
    t.url,
    users.grantee.key,
    'mutation($id: ID!) { setDatasetEmbargo(id: $id, until: null) { embargoed } }',
    {
      id: x.dataset,
    },
  );
  expect(g.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
});

test('a signed link handed out while open stops at the embargo; one handed out under it to the owner works', async () => {
  const x = await target(true, null);
  const before = await ok(rest(t.url, 'GET', `/files/${x.file}/download_link`, { key: users.stranger.key }));
  expect((await fetch(reach(before.url))).status).toBe(200);
  await ok(
    rest(t.url, 'PUT', `/datasets/${x.dataset}/embargo`, {
      key: users.owner.key,
      body: { embargo_until: FAR },
    }),
  );
  const stale = await fetch(reach(before.url));
  expect(stale.status).toBe(403);
  const owners = await ok(rest(t.url, 'GET', `/files/${x.file}/download_link`, { key: users.owner.key }));
  expect(owners.url).toContain('embargo=exempt');
  expect((await fetch(reach(owners.url))).status).toBe(200);
  // the exemption is signed: dropping or adding it breaks the signature
  expect((await fetch(reach(owners.url.replace('&embargo=exempt', '')))).status).toBe(403);
  expect((await fetch(reach(`${before.url}&embargo=exempt`))).status).toBe(403);
  // lifted: the old link works again
  await ok(rest(t.url, 'DELETE', `/datasets/${x.dataset}/embargo`, { key: users.owner.key }));
  expect((await fetch(reach(before.url))).status).toBe(200);
});

const DESCRIPTION =
  'Diffraction images of lysozyme crystals collected at 100 K on beamline 7, with the processing logs.';

test("a published publication's embargo closes its datasets' files; its export shows the URL and the date", async () => {
  const x = await target(true, null);
  const pub = await ok(
    rest(t.url, 'POST', '/publications', {
      key: users.owner.key,
      body: {
        dataset_ids: [x.dataset],
        title: 'Embargoed',
        description: DESCRIPTION,
        creators: [{ name: 'Carberry, Josiah' }],
        license: 'CC-BY-4.0',
        embargo_until: FAR,
      },
    }),
  );
  expect(pub.embargo_until).toBe('2199-01-01T00:00:00.000Z');
  // a draft's embargo closes nothing
  expect((await rest(t.url, 'GET', `/files/${x.file}/download`, { key: users.stranger.key })).status).toBe(
    200,
  );
  await ok(rest(t.url, 'POST', `/publications/${pub.id}/publish`, { key: users.owner.key }));
  for (const c of CALLERS) {
    const got = (await restOutcome(c, 'GET', `/files/${x.file}/download`)).outcome;
    expect([c, got]).toEqual([c, c === 'anonymous' ? 401 : c === 'stranger' ? 403 : 'allowed']);
  }
  const e = await rest(t.url, 'GET', `/datasets/${x.dataset}/embargo`, { key: users.stranger.key });
  expect(e.body).toMatchObject({
    embargo_until: null,
    files_open_at: '2199-01-01T00:00:00.000Z',
    embargoed: true,
  });
  const dc = await rest(t.url, 'GET', `/publications/${pub.id}/export/datacite-json`, {
    key: users.stranger.key,
  });
  expect(dc.status).toBe(200);
  expect(JSON.stringify(dc.body)).toContain('"date":"2199-01-01T00:00:00Z","dateType":"Available"');
  const so = await rest(t.url, 'GET', `/publications/${pub.id}/export/schema-org`, {
    key: users.stranger.key,
  });
  expect(JSON.stringify(so.body)).toContain(`/api/v2/files/${x.file}/download`);
  // published, its embargo no longer changes
  const change = await rest(t.url, 'PATCH', `/publications/${pub.id}`, {
    key: users.owner.key,
    body: { embargo_until: null },
  });
  expect(change.status).toBe(409);
});

/** The database's clock (the embargo is decided by it, in the statement that reads). */
async function dbNow(): Promise<Date> {
  const [row] = await t.app.orm.em.fork().getConnection().execute<{ now: Date }[]>('select now() as now');
  return new Date(row.now);
}

test('an embargo opens at its moment, when the request is read: no job runs', async () => {
  const x = await target(true, null);
  const until = new Date((await dbNow()).getTime() + 3000);
  await ok(
    rest(t.url, 'PUT', `/datasets/${x.dataset}/embargo`, {
      key: users.owner.key,
      body: { embargo_until: until.toISOString() },
    }),
  );
  expect((await rest(t.url, 'GET', `/files/${x.file}/download`, { key: users.stranger.key })).status).toBe(
    403,
  );
  while ((await dbNow()).getTime() < until.getTime()) await new Promise((r) => setTimeout(r, 200));
  for (const route of Object.keys(ROUTES)) {
    expect([route, await ROUTES[route]('stranger', x)]).toEqual([route, 'allowed']);
  }
  const e = await rest(t.url, 'GET', `/datasets/${x.dataset}/embargo`, { key: users.stranger.key });
  expect(e.body).toMatchObject({ embargoed: false, bytes_readable: true });
});
