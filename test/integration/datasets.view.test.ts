import sharp from 'sharp';
import { startTestApp, type TestApp } from '../support/app';
import { gql, rest, type GqlReply } from '../support/http';
import { addMember, grant, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { rawQuery } from '../../src/core/db/raw';
import type { Project } from '../../src/modules/project/project.entity';

/**
 * The GraphQL dataset list answers from one statement without entities when its selection
 * allows (dataset-view.ts, docs/performance.md "The GraphQL list in one statement"). Its
 * answers must be the entity path's: the same query plus a field the view leaves to the entity
 * path (`scientificMetadata`) is answered there, and the two are compared node by node, for
 * records with every field set, nulls, legacy display values, characters JSON escapes, large
 * sizes, several callers (whose views of records and e-mail addresses differ), filters, project
 * relations and pages followed to the end.
 */
let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let project: Project;
let elsewhere: Project;
let session: string;

const TRICKY = `"quoted" \\ back/slash\nnew\ttab\r\u0001\u001f é 😀 \u2028 中文 </script> '`;

/** What the view answers itself. */
const OWN = `uniqueId datasetName measurement dataType dataFormat sessionName timestamp size public
  creationTime modificationTime ownerOrcid __typename
  owner { uniqueId username email firstName lastName isServiceAccount }
  project { uniqueId projectId title } projectId
  instrument { uniqueId instrumentId instrumentName } instrumentId instrumentName
  keywords firstThumbnail { id thumbnailName mimeType datasetId }
  capabilities { canDelete }
  files(first: 1) { totalCount }`;
/** And a field whose resolver runs on the view's node as it is (through its loader). */
const FIELDS = `${OWN} thumbnails { id }`;

/** A list query; `extra` adds node fields (the entity path's). */
const list = (args: string, extra = '') => `query($after: String) {
  datasets(first: 2, after: $after, ${args}) {
    totalCount totalCountIsExact
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor projectRelation node { ...F ${extra} } }
    nodes { uniqueId }
  } }
  fragment F on Dataset { ${FIELDS} }`;

const create = async (key: string, body: Record<string, unknown>) => {
  const res = await rest(t.url, 'POST', '/datasets', { key, body: { session_name: session, ...body } });
  expect(res.status).toBe(201);
  return res.body.unique_id as string;
};

/** Every page of the list through the view and through the entity path; they must agree. */
async function same(user: TestUser, args: string) {
  const pages: any[] = [];
  let after: string | null = null;
  do {
    t.queries.length = 0;
    const view: GqlReply<any> = await gql(t.url, user.key, list(args), { after });
    expect(view.errors).toBeUndefined();
    // the view's statement: the page, its relations and the total in one
    expect(t.queries.filter((s) => /\bas _owner\b/.test(s))).toHaveLength(1);
    t.queries.length = 0;
    const entity = await gql(t.url, user.key, list(args, 'scientificMetadata'), { after });
    expect(entity.errors).toBeUndefined();
    expect(t.queries.filter((s) => /\bas _owner\b/.test(s))).toEqual([]);
    for (const edge of entity.data.datasets.edges) delete edge.node.scientificMetadata;
    expect(view.data).toEqual(entity.data);
    pages.push(view.data.datasets);
    after = view.data.datasets.pageInfo.hasNextPage ? view.data.datasets.pageInfo.endCursor : null;
  } while (after);
  return pages;
}

const nodes = (pages: any[]) => pages.flatMap((p) => p.edges.map((e: any) => e.node));

beforeAll(async () => {
  // a TTL no request here outlives: a warm-up request's cache entries serve the next one
  t = await startTestApp({ AUTH_CACHE_TTL_MS: '60000' });
  admin = await makeUser(t.app, { admin: true });
  alice = await makeUser(t.app);
  bob = await makeUser(t.app);
  project = await makeProject(t.app, admin.user);
  elsewhere = await makeProject(t.app, admin.user);
  for (const p of [project, elsewhere]) await addMember(t.app, p, alice.user, 'contributor');
  await addMember(t.app, project, bob.user, 'viewer');
  const made = await rest(t.url, 'POST', '/instruments', {
    key: admin.key,
    body: { instrument_name: unique(`Instrument ${TRICKY}`), owner: admin.user.uniqueId },
  });
  expect(made.status).toBe(201);
  const instrument = made.body.unique_id as string;
  session = unique('view');

  const full = await create(alice.key, {
    dataset_name: `full ${TRICKY}`,
    measurement: 'XRD ✓',
    data_type: 'raw',
    data_format: 'h5',
    timestamp: '2026-01-17T01:31:26Z',
    project_id: project.projectId,
    instrument_mfid: instrument,
    scientific_metadata: { a: 1 },
  });
  const nulls = await create(alice.key, { public: true });
  const legacy = await create(alice.key, { dataset_name: 'legacy' });
  const big = await create(alice.key, { dataset_name: 'big', public: true });
  const shared = await create(alice.key, { dataset_name: 'shared', project_id: elsewhere.projectId });
  const granted = await create(alice.key, { dataset_name: 'granted to bob' });
  await create(alice.key, { dataset_name: 'private' });
  await create(bob.key, { dataset_name: 'bob' });
  const em = t.app.orm.em.fork();
  await rawQuery(
    em,
    `update dataset set legacy_project_id = 'old-project', legacy_instrument_id = 'old-inst',
     legacy_instrument_name = ? where unique_id = ?`,
    [`Old ${TRICKY}`, legacy],
  );
  await rawQuery(em, 'update dataset set size = 9007199254740991 where unique_id = ?', [big]);
  await grant(t.app, shared, 'dataset', 'project', project.uniqueId, 'viewer');
  await grant(t.app, granted, 'dataset', 'user', bob.user.uniqueId, 'viewer');

  for (const [ds, keywords] of [
    [full, ['zeta', 'Alpha', 'beta', `k ${TRICKY}`]],
    [nulls, ['alpha']],
    [shared, ['alpha', 'gamma']],
  ] as const) {
    for (const keyword of keywords) {
      const r = await rest(t.url, 'POST', `/datasets/${ds}/keywords`, { key: alice.key, query: { keyword } });
      expect(r.status).toBeLessThan(300);
    }
  }
  const image = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#08f' } })
    .png()
    .toBuffer();
  for (const [ds, n] of [
    [full, 2],
    [shared, 1],
  ] as const) {
    for (let i = 0; i < n; i++) {
      const r = await rest(t.url, 'POST', `/datasets/${ds}/thumbnails`, {
        key: alice.key,
        body: { thumbnail_b64str: image.toString('base64'), thumbnail_name: `t${i} ${TRICKY}` },
      });
      expect(r.status).toBe(201);
    }
  }
  for (let i = 0; i < 3; i++) {
    const r = await rest(t.url, 'POST', `/datasets/${full}/files`, {
      key: alice.key,
      body: { filename: `/far/${i}.h5`, storage_backend: 'nersc', size: 9 },
    });
    expect(r.status).toBe(201);
  }
}, 60_000);
afterAll(() => t.close());

test('every caller sees through the view what the entity path shows, page by page', async () => {
  const seen = new Map<TestUser, number>();
  for (const user of [admin, alice, bob]) {
    const pages = await same(user, `filter: { sessionName: "${session}" }`);
    seen.set(user, nodes(pages).length);
    expect(pages[0].totalCount).toBe(nodes(pages).length);
  }
  expect(seen.get(admin)).toBe(8);
  expect(seen.get(alice)).toBe(7);
  // bob: his own, the project's, the public two, the one shared with the project, his grant
  expect(seen.get(bob)).toBe(6);
});

test('the view agrees under filters: a project and its relations, a keyword, full text, owner', async () => {
  for (const user of [admin, alice, bob]) {
    for (const scope of ['assigned', 'shared', 'all']) {
      const pages = await same(
        user,
        `filter: { sessionName: "${session}", projectId: "${project.projectId}", projectScope: ${scope} }`,
      );
      if (scope === 'all' && user !== admin) {
        expect(new Set(pages.flatMap((p) => p.edges.map((e: any) => e.projectRelation)))).toEqual(
          new Set(['assigned', 'shared']),
        );
      }
    }
    await same(user, `filter: { keyword: "alpha" }`);
    await same(user, `filter: { sessionName: "${session}", text: "legacy" }`);
    await same(user, `filter: { ownerOrcid: "${alice.user.uniqueId}", sessionName: "${session}" }`);
  }
});

test("a project's datasets answer through the view too", async () => {
  const query = (extra: string) => `query($p: String!) { project(id: $p) {
    datasets(first: 10, scope: all) { totalCount edges { projectRelation node { ...F ${extra} } } } } }
    fragment F on Dataset { ${FIELDS} }`;
  t.queries.length = 0;
  const view = await gql(t.url, bob.key, query(''), { p: project.projectId });
  expect(view.errors).toBeUndefined();
  expect(t.queries.filter((s) => /\bas _owner\b/.test(s))).toHaveLength(1);
  const entity = await gql(t.url, bob.key, query('scientificMetadata'), { p: project.projectId });
  for (const edge of entity.data.project.datasets.edges) delete edge.node.scientificMetadata;
  expect(view.data).toEqual(entity.data);
  // the one assigned to the project and the one shared with it
  expect(view.data.project.datasets.totalCount).toBe(2);
});

test('the view costs one statement with a cached key, the same for 2 or 8 rows', async () => {
  const q = (
    n: number,
  ) => `{ datasets(first: ${n}, filter: { sessionName: "${session}" }) { totalCount nodes { ...F } } }
    fragment F on Dataset { ${OWN} }`;
  for (const user of [admin, bob]) {
    for (const n of [2, 8]) {
      await gql(t.url, user.key, q(n)); // the key and what is granted to bob are then cached
      t.queries.length = 0;
      const res = await gql(t.url, user.key, q(n));
      expect(res.errors).toBeUndefined();
      expect(t.queries).toHaveLength(1);
    }
  }
  // a page alone: no count runs; a total alone: no page runs
  t.queries.length = 0;
  const page = await gql(t.url, admin.key, `{ datasets(first: 2) { nodes { uniqueId } } }`);
  expect(page.errors).toBeUndefined();
  expect(t.queries.filter((s) => /count\(\*\)|dataset_total/.test(s))).toEqual([]);
  t.queries.length = 0;
  await gql(t.url, admin.key, `{ datasets(first: 2) { totalCount } }`);
  expect(t.queries.filter((s) => /\blimit\b/.test(s))).toEqual([]);
});

test('an empty page still carries its total; the image bytes come by id when asked', async () => {
  const empty = await gql(
    t.url,
    bob.key,
    `{ datasets(first: 5, filter: { sessionName: "nothing-${session}" }) { totalCount edges { node { uniqueId } } } }`,
  );
  expect(empty.data.datasets).toEqual({ totalCount: 0, edges: [] });
  const bytes = await gql(
    t.url,
    alice.key,
    `{ datasets(first: 10, filter: { sessionName: "${session}" }) { nodes { datasetName firstThumbnail { thumbnailB64str } } } }`,
  );
  const shown = bytes.data.datasets.nodes.filter((n: any) => n.firstThumbnail);
  expect(shown).toHaveLength(2);
  for (const n of shown) {
    expect(Buffer.from(n.firstThumbnail.thumbnailB64str, 'base64').subarray(0, 2)).toEqual(
      Buffer.from([0xff, 0xd8]),
    );
  }
});

test('file counts: from the view when a totalCount alone is asked with valid arguments, else through the resolver, which reports bad ones as before', async () => {
  const q = (files: string, extra = '') =>
    `query${files.includes('$f') ? '($f: Int)' : ''} { datasets(first: 10, filter: { sessionName: "${session}" }) {
      nodes { uniqueId ${files} ${extra} } } }`;
  for (const [files, valid] of [
    ['files { totalCount }', true],
    ['files(first: 1) { totalCount __typename }', true],
    ['files(first: 1) { totalCount nodes { filename } }', true],
    ['files(first: 0) { totalCount }', false],
    ['files(first: 100000) { totalCount }', false],
    ['files(after: "nonsense") { totalCount }', false],
  ] as const) {
    const view = await gql(t.url, alice.key, q(files));
    expect(view.errors === undefined).toBe(valid);
    const entity = await gql(t.url, alice.key, q(files, 'scientificMetadata'));
    for (const node of entity.data?.datasets.nodes ?? []) delete node.scientificMetadata;
    expect(view).toEqual(entity);
  }
  // one alias with good arguments, one with arguments from a variable
  const aliased = 'a: files(first: 1) { totalCount } b: files(first: $f) { totalCount }';
  for (const f of [2, 0]) {
    const view = await gql(t.url, alice.key, q(aliased), { f });
    expect(view.errors === undefined).toBe(f > 0);
    const entity = await gql(t.url, alice.key, q(aliased, 'scientificMetadata'), { f });
    for (const node of entity.data?.datasets.nodes ?? []) delete node.scientificMetadata;
    expect(view).toEqual(entity);
  }
  const counts = await gql(t.url, alice.key, q('files { totalCount }'));
  expect(counts.data.datasets.nodes.map((n: any) => n.files.totalCount).sort()).toEqual([
    0, 0, 0, 0, 0, 0, 3,
  ]);
  const bad = await gql(t.url, alice.key, q('files(first: 0) { totalCount }'));
  expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
});
