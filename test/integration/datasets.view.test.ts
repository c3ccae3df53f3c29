import sharp from 'sharp';
import { startTestApp, type TestApp } from '../support/app';
import { gql, rest, type GqlReply } from '../support/http';
import { addMember, grant, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { rawQuery } from '../../src/core/db/raw';
import { encodeCursor } from '../../src/core/pagination';
import type { Project } from '../../src/modules/project/project.entity';
import { Dataset } from '../../src/modules/dataset/dataset.entity';
import type { DatasetFilter } from '../../src/modules/dataset/dataset.query';
import { Thumbnail } from '../../src/modules/thumbnail/thumbnail.entity';
import { AssociatedFile } from '../../src/modules/file/file.entity';

/**
 * The GraphQL dataset list answers from one statement with rows (the read model, dataset-row.ts,
 * docs/performance.md "The GraphQL list in one statement"). Its answers are compared here, node
 * by node, with expectations built from the ORM's entities (fields, owner with the caller's view
 * of e-mail addresses, project and instrument with the display values of legacy records,
 * keywords, thumbnails, file counts) for the records the caller's own list ids name, in their
 * order: records with every field set, nulls, legacy display values, characters JSON escapes,
 * large sizes, several callers, filters, project relations and pages followed to the end.
 */
let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let project: Project;
let elsewhere: Project;
let session: string;

const TRICKY = `"quoted" \\ back/slash\nnew\ttab\r\u0001\u001f é 😀 \u2028 中文 </script> '`;

/** What the page's statement answers itself. */
const OWN = `uniqueId datasetName measurement dataType dataFormat sessionName timestamp size public
  creationTime modificationTime ownerOrcid __typename
  owner { uniqueId username email firstName lastName isServiceAccount }
  project { uniqueId projectId title } projectId
  instrument { uniqueId instrumentId instrumentName } instrumentId instrumentName
  keywords firstThumbnail { id thumbnailName mimeType datasetId }
  capabilities { canDelete }
  files(first: 1) { totalCount }`;
/** And fields answered through their own loaders. */
const FIELDS = `${OWN} thumbnails { id } scientificMetadata`;

/** A filter as the GraphQL argument writes it. */
const argument = (filter: DatasetFilter) =>
  Object.entries(filter)
    .map(([key, value]) => `${key}: ${key === 'projectScope' ? String(value) : JSON.stringify(value)}`)
    .join(', ');

/** A list query over `filter`. */
const list = (filter: DatasetFilter) => `query($after: String) {
  datasets(first: 2, after: $after, filter: { ${argument(filter)} }) {
    totalCount totalCountIsExact
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor projectRelation node { ...F } }
    nodes { uniqueId }
  } }
  fragment F on Dataset { ${FIELDS} }`;

const create = async (key: string, body: Record<string, unknown>) => {
  const res = await rest(t.url, 'POST', '/datasets', { key, body: { session_name: session, ...body } });
  expect(res.status).toBe(201);
  return res.body.unique_id as string;
};

/**
 * A node as the ORM's entities give it, for `user`: e-mail addresses only of oneself (or for an
 * administrator), the display values of legacy records where a relationship is missing.
 */
async function expectedNode(user: TestUser, id: string) {
  const em = t.app.orm.em.fork();
  const ds = await em.findOneOrFail(
    Dataset,
    { uniqueId: id },
    { populate: ['owner', 'project', 'instrument'] },
  );
  const keywords = await rawQuery<{ text: string }>(
    em,
    'select k.text from dataset_keyword dk join keyword k on k.id = dk.keyword_id where dk.dataset_mfid = ? order by k.text',
    [id],
  );
  const thumbnails = await em.find(Thumbnail, { dataset: id }, { orderBy: { id: 'asc' }, exclude: ['data'] });
  const files = await em.count(AssociatedFile, { dataset: id });
  const { owner, project: p, instrument: i } = ds;
  const seesEmail = user === admin || user.user.uniqueId === owner.uniqueId;
  const first = thumbnails.at(0);
  return {
    uniqueId: ds.uniqueId,
    datasetName: ds.datasetName ?? null,
    measurement: ds.measurement ?? null,
    dataType: ds.dataType ?? null,
    dataFormat: ds.dataFormat ?? null,
    sessionName: ds.sessionName ?? null,
    timestamp: ds.timestamp ?? null,
    size: ds.size,
    public: ds.public,
    creationTime: ds.creationTime.toISOString(),
    modificationTime: ds.modificationTime.toISOString(),
    ownerOrcid: owner.uniqueId,
    __typename: 'Dataset',
    owner: {
      uniqueId: owner.uniqueId,
      username: owner.username ?? null,
      email: seesEmail ? (owner.email ?? null) : null,
      firstName: owner.firstName ?? null,
      lastName: owner.lastName ?? null,
      isServiceAccount: owner.isServiceAccount,
    },
    project: p ? { uniqueId: p.uniqueId, projectId: p.projectId, title: p.title ?? null } : null,
    projectId: p?.projectId ?? ds.legacyProjectId ?? null,
    instrument: i
      ? { uniqueId: i.uniqueId, instrumentId: i.instrumentId, instrumentName: i.instrumentName }
      : null,
    instrumentId: i?.instrumentId ?? ds.legacyInstrumentId ?? null,
    instrumentName: i?.instrumentName ?? ds.legacyInstrumentName ?? null,
    keywords: keywords.map((k) => k.text),
    firstThumbnail: first
      ? { id: first.id, thumbnailName: first.thumbnailName, mimeType: first.mimeType, datasetId: id }
      : null,
    capabilities: null,
    files: { totalCount: files },
    thumbnails: thumbnails.map((th) => ({ id: th.id })),
    scientificMetadata: id === fullId ? { a: 1 } : null,
  };
}

let fullId: string;

/**
 * Every page of the list for `user` over `filter`, each compared with what entities say of the
 * records the caller's own list names (`readableIds`: the same visibility and filters), in that
 * order, with the project relation of each when the filter names a project.
 */
async function same(user: TestUser, filter: DatasetFilter) {
  const ctx = await t.app.contexts.forUser(user.user.uniqueId, unique('view-expect'));
  const ids = await ctx.services.dataset.readableIds(ctx, filter);
  const named = filter.projectId !== undefined;
  const pages: any[] = [];
  let after: string | null = null;
  let offset = 0;
  do {
    t.queries.length = 0;
    const res: GqlReply<any> = await gql(t.url, user.key, list(filter), { after });
    expect(res.errors).toBeUndefined();
    // the page, what its nodes show of their relations and the total: one statement
    const page = t.queries.filter((s) => /\bunique_id as _id\b/.test(s));
    expect(page).toHaveLength(1);
    expect(page[0]).toMatch(
      /\bas _owner\b.*\bas _project_mfid\b.*\bas _instrument_mfid\b.*\bas _keywords\b/s,
    );
    const got = res.data.datasets;
    const slice = ids.slice(offset, offset + 2);
    const edges = [];
    for (const id of slice) {
      const ds = await t.app.orm.em.fork().findOneOrFail(Dataset, { uniqueId: id });
      const relation = named ? (ds.project?.uniqueId === project.uniqueId ? 'assigned' : 'shared') : null;
      edges.push({ cursor: encodeCursor(id), projectRelation: relation, node: await expectedNode(user, id) });
    }
    const more = offset + 2 < ids.length;
    expect(got).toEqual({
      totalCount: ids.length,
      totalCountIsExact: true,
      pageInfo: {
        hasNextPage: more,
        hasPreviousPage: false,
        startCursor: edges.at(0)?.cursor ?? null,
        endCursor: edges.at(-1)?.cursor ?? null,
      },
      edges,
      nodes: slice.map((uniqueId) => ({ uniqueId })),
    });
    pages.push(got);
    offset += 2;
    after = more ? got.pageInfo.endCursor : null;
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
  fullId = full;
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
    // keywords of this file's own (other files' datasets carry 'alpha' too, the vocabulary is shared)
    [full, ['zeta', `Alpha ${session}`, 'beta', `k ${TRICKY}`]],
    [nulls, [`alpha ${session}`]],
    [shared, [`alpha ${session}`, 'gamma']],
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

test('every caller sees what the entities say, page by page', async () => {
  const seen = new Map<TestUser, number>();
  for (const user of [admin, alice, bob]) {
    const pages = await same(user, { sessionName: session });
    seen.set(user, nodes(pages).length);
    expect(pages[0].totalCount).toBe(nodes(pages).length);
  }
  expect(seen.get(admin)).toBe(8);
  expect(seen.get(alice)).toBe(7);
  // bob: his own, the project's, the public two, the one shared with the project, his grant
  expect(seen.get(bob)).toBe(6);
});

test('the list agrees under filters: a project and its relations, a keyword, full text, owner', async () => {
  for (const user of [admin, alice, bob]) {
    for (const projectScope of ['assigned', 'shared', 'all'] as const) {
      const pages = await same(user, { sessionName: session, projectId: project.projectId, projectScope });
      if (projectScope === 'all' && user !== admin) {
        expect(new Set(pages.flatMap((p) => p.edges.map((e: any) => e.projectRelation)))).toEqual(
          new Set(['assigned', 'shared']),
        );
      }
    }
    // a keyword alone, any case: both spellings
    await same(user, { keyword: `ALPHA ${session}` });
    await same(user, { sessionName: session, text: 'legacy' });
    await same(user, { ownerOrcid: alice.user.uniqueId, sessionName: session });
  }
});

test("a project's datasets answer from the one statement too", async () => {
  const query = `query($p: String!) { project(id: $p) {
    datasets(first: 10, scope: all) { totalCount edges { projectRelation node { ...F } } } } }
    fragment F on Dataset { ${FIELDS} }`;
  t.queries.length = 0;
  const res = await gql(t.url, bob.key, query, { p: project.projectId });
  expect(res.errors).toBeUndefined();
  expect(t.queries.filter((s) => /\bunique_id as _id\b/.test(s) && /\bas _owner\b/.test(s))).toHaveLength(1);
  const edges = res.data.project.datasets.edges;
  // the one assigned to the project and the one shared with it
  expect(res.data.project.datasets.totalCount).toBe(2);
  const expected = [];
  for (const e of edges) {
    const ds = await t.app.orm.em.fork().findOneOrFail(Dataset, { uniqueId: e.node.uniqueId });
    const relation = ds.project?.uniqueId === project.uniqueId ? 'assigned' : 'shared';
    expected.push({ projectRelation: relation, node: await expectedNode(bob, e.node.uniqueId) });
  }
  expect(edges).toEqual(expected);
  expect(new Set(edges.map((e: any) => e.projectRelation))).toEqual(new Set(['assigned', 'shared']));
});

test('the list costs one statement with a cached key, the same for 2 or 8 rows', async () => {
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

test('file counts come with the page, whatever the arguments of files; the resolver still checks them and reports bad ones', async () => {
  const q = (files: string) =>
    `query${files.includes('$f') ? '($f: Int)' : ''} { datasets(first: 10, filter: { sessionName: "${session}" }) {
      nodes { uniqueId ${files} } } }`;
  const ctx = await t.app.contexts.forUser(alice.user.uniqueId, unique('view-files'));
  const ids = await ctx.services.dataset.readableIds(ctx, { sessionName: session });
  const em = t.app.orm.em.fork();
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, await em.count(AssociatedFile, { dataset: id }));
  const shown = (res: GqlReply<any>, alias: string) =>
    new Map(res.data.datasets.nodes.map((n: any) => [n.uniqueId, n[alias].totalCount]));
  for (const [files, valid] of [
    ['files { totalCount }', true],
    ['files(first: 1) { totalCount __typename }', true],
    ['files(first: 1) { totalCount nodes { filename } }', true],
    ['files(first: 0) { totalCount }', false],
    ['files(first: 100000) { totalCount }', false],
    ['files(after: "nonsense") { totalCount }', false],
  ] as const) {
    const res = await gql(t.url, alice.key, q(files));
    if (valid) {
      expect(res.errors).toBeUndefined();
      expect(shown(res, 'files')).toEqual(counts);
    } else {
      // (refused before execution, or at the first node's files: no data either way)
      expect(res.data ?? null).toBeNull();
      expect(res.errors?.length).toBeGreaterThan(0);
      expect(new Set(res.errors?.map((e) => e.extensions?.code))).toEqual(new Set(['BAD_USER_INPUT']));
    }
  }
  const nodes = (await gql(t.url, alice.key, q('files(first: 1) { nodes { filename } }'))).data.datasets
    .nodes;
  for (const n of nodes) expect(n.files.nodes).toHaveLength(Math.min(1, counts.get(n.uniqueId) ?? 0));
  // one alias with good arguments, one with arguments from a variable
  const aliased = 'a: files(first: 1) { totalCount } b: files(first: $f) { totalCount }';
  const good = await gql(t.url, alice.key, q(aliased), { f: 2 });
  expect(good.errors).toBeUndefined();
  expect(shown(good, 'a')).toEqual(counts);
  expect(shown(good, 'b')).toEqual(counts);
  const bad = await gql(t.url, alice.key, q(aliased), { f: 0 });
  expect(bad.data ?? null).toBeNull();
  expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  expect([...counts.values()].sort()).toEqual([0, 0, 0, 0, 0, 0, 3]);
});
