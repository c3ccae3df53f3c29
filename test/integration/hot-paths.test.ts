import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { addMember, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { png } from '../support/fixtures';
import { wrap } from '@mikro-orm/core';
import { entityLoader } from '../../src/core/db/loader';
import { statementBatch } from '../../src/core/db/statement-batch';
import { User } from '../../src/modules/user/user.entity';
import { Project } from '../../src/modules/project/project.entity';
import { Instrument } from '../../src/modules/instrument/instrument.entity';

/**
 * The statements behind the hot GraphQL paths (docs/operations.md, "Hot paths"): what loaders
 * select, and how many statements a request costs. Counts and shapes only, never timings.
 */
let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let session: string;
const datasets: string[] = [];
let image: Buffer;

const LIST = `query($n: Int!, $s: String!) { datasets(first: $n, filter: { sessionName: $s }) { totalCount edges { cursor node {
  uniqueId datasetName measurement ownerOrcid owner { username } project { projectId title }
  instrument { instrumentName } keywords firstThumbnail { id thumbnailName mimeType }
  files(first: 1) { totalCount } } } } }`;

/** The statements one request runs (after a warm-up run of the same request). */
async function statements(key: string, query: string, variables: Record<string, unknown> = {}) {
  await gql(t.url, key, query, variables);
  t.queries.length = 0;
  const res = await gql(t.url, key, query, variables);
  expect(res.errors).toBeUndefined();
  return { res, sql: [...t.queries] };
}

beforeAll(async () => {
  // a TTL no request here outlives: the warm-up request's cache entries serve the measured one
  t = await startTestApp({ AUTH_CACHE_TTL_MS: '60000' });
  admin = await makeUser(t.app, { admin: true });
  alice = await makeUser(t.app);
  const project = await makeProject(t.app, admin.user);
  await addMember(t.app, project, alice.user, 'contributor');
  const owners = [alice, await makeUser(t.app)];
  await addMember(t.app, project, owners[1].user, 'contributor');
  session = unique('hot');
  const inst = await gql(
    t.url,
    admin.key,
    `mutation($n: String!) { createInstrument(input: { instrumentName: $n }) { uniqueId } }`,
    { n: unique('Hot instrument') },
  );
  image = await png();
  for (let i = 0; i < 12; i++) {
    const owner = owners[i % 2];
    const r = await gql(
      t.url,
      owner.key,
      `mutation($input: CreateDatasetInput!) { createDataset(input: $input) { uniqueId } }`,
      {
        input: {
          datasetName: `h${i}`,
          sessionName: session,
          projectId: project.projectId,
          instrumentMfid: inst.data.createInstrument.uniqueId,
        },
      },
    );
    const id = r.data.createDataset.uniqueId as string;
    datasets.push(id);
    for (const keyword of ['alpha', `k${i}`]) {
      await rest(t.url, 'POST', `/datasets/${id}/keywords`, { key: owner.key, query: { keyword } });
    }
    for (let f = 0; f < i % 3; f++) {
      await rest(t.url, 'POST', `/datasets/${id}/files`, {
        key: owner.key,
        body: { filename: `/far/${i}-${f}.h5`, storage_backend: 'nersc', size: 9 },
      });
    }
    if (i % 4 !== 3) {
      const added = await rest(t.url, 'POST', `/datasets/${id}/thumbnails`, {
        key: owner.key,
        body: { thumbnail_b64str: image.toString('base64'), thumbnail_name: `t${i}` },
      });
      expect(added.status).toBe(201);
    }
  }
});
afterAll(() => t.close());

/** The selects of the statements: the parts of a batched `union all`, each on its own. */
const parts = (sql: string[]) => sql.flatMap((s) => s.split(/ union all /));
const onThumbnails = (sql: string[]) => parts(sql).filter((s) => /\bfrom "?thumbnail"?\b/.test(s));
/** A select of thumbnails with their bytes, or every column. */
const NO_BYTES = /thumbnail\.\*|\* from "?thumbnail\b|\bdata\b/;
const onFiles = (sql: string[]) => parts(sql).filter((s) => /\bfrom "?associated_file"?\b/.test(s));

test('thumbnail lists never select the image bytes unless thumbnailB64str is asked', async () => {
  const meta = await statements(admin.key, LIST, { n: 12, s: session });
  const listed = onThumbnails(meta.sql);
  expect(listed).toHaveLength(1);
  // (the list's own statement: its first thumbnails are a subquery of the page, dataset-row.ts)
  expect(listed[0]).not.toMatch(NO_BYTES);
  const fragments = await statements(
    admin.key,
    `query($s: String!) { datasets(first: 12, filter: { sessionName: $s }) { nodes { ...N } } }
     fragment N on Dataset { firstThumbnail { ... on Thumbnail { id } } thumbnails { ...T } }
     fragment T on Thumbnail { thumbnailName }`,
    { s: session },
  );
  expect(onThumbnails(fragments.sql).filter((s) => NO_BYTES.test(s))).toEqual([]);
  const thumbs = meta.res.data.datasets.edges.map((e: any) => e.node.firstThumbnail);
  expect(thumbs.filter((x: unknown) => x === null)).toHaveLength(3);

  const withBytes = `query($s: String!) { datasets(first: 12, filter: { sessionName: $s }) { nodes {
    firstThumbnail { thumbnailName thumbnailB64str } thumbnails { id thumbnailB64str } } } }`;
  const bytes = await statements(admin.key, withBytes, { s: session });
  const selects = onThumbnails(bytes.sql).filter((s) => /\bdata\b/.test(s));
  // the bytes only because thumbnailB64str is selected: one batch for the first thumbnails (by
  // id: the list's statement found them), one for all
  expect(selects).toHaveLength(2);
  expect(selects.every((s) => !/\* from "?thumbnail\b/.test(s))).toBe(true);
  const nodes = bytes.res.data.datasets.nodes;
  const shown = nodes.filter((n: any) => n.firstThumbnail);
  expect(shown).toHaveLength(9);
  for (const n of shown) {
    const jpeg = Buffer.from(n.firstThumbnail.thumbnailB64str, 'base64');
    expect(jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8])); // stored as JPEG
    expect(n.thumbnails[0].thumbnailB64str).toBe(n.firstThumbnail.thumbnailB64str);
  }
});

test('a totalCount-only selection runs one count, batched across parents, and no page query', async () => {
  const counts = await statements(
    admin.key,
    `query($s: String!) { datasets(first: 12, filter: { sessionName: $s }) { nodes { uniqueId files(first: 1) { totalCount } } } }`,
    { s: session },
  );
  // the list's own statement: the counts are a subquery of the page (dataset-row.ts), no page of files
  const files = onFiles(counts.sql);
  expect(files).toHaveLength(1);
  expect(files[0]).toMatch(/count\(\*\)/);
  expect(files[0]).not.toMatch(/\bfrom associated_file where dataset_mfid = \$\d/);
  const byId = new Map(counts.res.data.datasets.nodes.map((n: any) => [n.uniqueId, n.files.totalCount]));
  datasets.forEach((id, i) => {
    expect(byId.get(id)).toBe(i % 3);
  });
  for (const first of [1, 50]) {
    const zero = await statements(
      admin.key,
      `query($s: String!) { datasets(first: 12, filter: { sessionName: $s }) { nodes { files(first: ${first}) { totalCount } } } }`,
      { s: session },
    );
    expect(onFiles(zero.sql)).toHaveLength(1);
  }
  // nodes selected as well: the page and the count
  const both = await statements(
    admin.key,
    `query($s: String!) { datasets(first: 12, filter: { sessionName: $s }) { nodes { files(first: 1) { totalCount nodes { filename } } } } }`,
    { s: session },
  );
  expect(onFiles(both.sql).filter((s) => /count\(\*\)/.test(s))).toHaveLength(1);
  // the pages: one statement, a subquery per dataset
  expect(both.sql.filter((s) => /\bfrom associated_file where dataset_mfid = \$1\b/.test(s))).toHaveLength(1);
  // a top-level list: only its count
  const total = await statements(
    admin.key,
    `query($s: String!) { datasets(filter: { sessionName: $s }) { totalCount } }`,
    { s: session },
  );
  expect(total.res.data.datasets.totalCount).toBe(12);
  expect(total.sql.filter((s) => /\bfrom "?dataset"? d?\b/.test(s) && /\blimit\b/.test(s))).toEqual([]);
  for (const list of ['projects', 'instruments', 'samples', 'files']) {
    const only = await statements(admin.key, `{ ${list}(first: 5) { totalCount } }`);
    expect(only.sql.filter((s) => /\blimit\b/.test(s))).toEqual([]);
    const paged = await statements(
      admin.key,
      `{ ${list}(first: 5) { totalCount pageInfo { hasNextPage } } }`,
    );
    expect(paged.sql.filter((s) => /\blimit\b/.test(s))).toHaveLength(1);
  }
});

test('the issue-12 list costs 1 statement with a cached key (the page with its relations and count), 3 without (authentication, the MFIDs granted to the caller); the same for 5 or 12 rows', async () => {
  const counts: number[] = [];
  for (const n of [5, 12]) {
    const { res, sql } = await statements(alice.key, LIST, { n, s: session });
    expect(res.data.datasets.edges).toHaveLength(n);
    expect(res.data.datasets.totalCount).toBe(12);
    // the key was seen by the warm-up request: no authentication statement
    expect(sql.filter((s) => /\bfrom api_key\b/.test(s))).toEqual([]);
    // the ordinary caller's granted MFIDs (for the visibility condition, docs/scale.md): cached
    // with the key (docs/operations.md, "Authentication cache")
    expect(sql.filter((s) => /\bfrom access_grant g where\b/.test(s))).toEqual([]);
    counts.push(sql.length);
  }
  expect(counts[1]).toBe(counts[0]);
  expect(counts[0]).toBe(1);
  // a key not seen within the TTL adds its one authentication statement
  const fresh = await t.app.services.user.issueKey(t.app.orm.em.fork(), alice.user);
  t.queries.length = 0;
  const cold = await gql(t.url, fresh.secret, LIST, { n: 12, s: session });
  expect(cold.errors).toBeUndefined();
  expect(t.queries.filter((s) => /\bfrom api_key\b/.test(s))).toHaveLength(1);
  // (issuing the key emptied the caches: the granted MFIDs are read again)
  expect(t.queries.filter((s) => /\bfrom access_grant g where\b/.test(s))).toHaveLength(1);
  // beside the last_used_at bookkeeping of a key not used for 5 minutes
  expect(t.queries.filter((s) => !/update "api_key"/.test(s))).toHaveLength(3);
});

test('a sorted list (a column the web page sorts by) costs 1 statement with a cached key too, every page of it', async () => {
  const sorted = `query($s: String!, $after: String) {
    datasets(first: 5, after: $after, filter: { sessionName: $s }, orderBy: { field: datasetName, direction: desc }) {
      totalCount pageInfo { hasNextPage endCursor } edges { cursor node {
        uniqueId datasetName ownerOrcid owner { username } project { projectId title }
        instrument { instrumentName } keywords firstThumbnail { id thumbnailName mimeType }
        files(first: 1) { totalCount } } } } }`;
  const seen: string[] = [];
  let after: string | null = null;
  do {
    const { res, sql } = await statements(alice.key, sorted, { s: session, after });
    expect(sql).toHaveLength(1);
    const page = res.data.datasets;
    expect(page.totalCount).toBe(12);
    for (const e of page.edges) {
      expect(e.node.owner.username).toBeTruthy();
      expect(e.node.keywords).toContain('alpha');
      seen.push(e.node.datasetName);
    }
    after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  } while (after);
  expect(seen).toHaveLength(12);
  expect(new Set(seen).size).toBe(12);
  expect(seen).toEqual([...seen].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
});

test('relations a row was read without (datasets reached through their files) come from the row loader, in one statement for the page; the entity loaders map as the ORM maps', async () => {
  const nested = `{ files(first: 1000) { nodes { dataset { uniqueId
    owner { uniqueId username } project { uniqueId projectId title } instrument { uniqueId instrumentName }
    instrumentId keywords } } } }`;
  const { res, sql } = await statements(admin.key, nested);
  // (the administrator reads the files of other test files' datasets too)
  const nodes = res.data.files.nodes.filter((n: any) => datasets.includes(n.dataset.uniqueId));
  expect(nodes).toHaveLength(12);
  // the page of files, then the datasets' rows with every relation asked for: one statement
  const rows = sql.filter((s) => /\bfrom dataset d\b/.test(s));
  expect(rows).toHaveLength(1);
  for (const relation of ['_owner', '_project', '_instrument', '_keywords'])
    expect(rows[0]).toContain(relation);
  const others = sql.filter(
    (s) => !rows.includes(s) && /\bfrom "?(app_user|project|instrument|keyword)"? /.test(s),
  );
  expect(others).toEqual([]);
  expect(new Set(nodes.map((n: any) => n.dataset.owner.username)).size).toBe(2);
  for (const n of nodes) {
    expect(n.dataset.keywords).toContain('alpha');
    expect(n.dataset.instrument.instrumentName).toMatch(/^Hot instrument/);
    expect(typeof n.dataset.instrumentId).toBe('string');
  }

  // every property, dates and numbers included, equals what the ORM's own find returns
  const node = nodes[0].dataset;
  const ids = {
    user: alice.user.uniqueId,
    project: node.project.uniqueId,
    instrument: node.instrument.uniqueId,
  };
  const fork = t.app.orm.em.fork();
  const batch = statementBatch(fork);
  const loaders = {
    user: entityLoader(fork, User, 'uniqueId', batch),
    project: entityLoader(fork, Project, 'uniqueId', batch),
    instrument: entityLoader(fork, Instrument, 'uniqueId', batch),
  };
  const [user, project, instrument, missing] = await Promise.all([
    loaders.user.load(ids.user),
    loaders.project.load(ids.project),
    loaders.instrument.load(ids.instrument),
    loaders.user.load('0000000000000000000000000'),
  ]);
  expect(missing).toBeNull();
  const em = t.app.orm.em.fork();
  const plain = (e: object | null) => (e ? wrap(e).toObject() : null);
  expect(plain(user)).toEqual(plain(await em.findOne(User, { uniqueId: ids.user })));
  expect(plain(project)).toEqual(plain(await em.findOne(Project, { uniqueId: ids.project })));
  expect(plain(instrument)).toEqual(plain(await em.findOne(Instrument, { uniqueId: ids.instrument })));
  expect((project as Project).creationTime).toBeInstanceOf(Date);
});

test('the REST dataset list costs 2 statements with a cached key (the page with its projects, instruments and, with include_owner, owners; the total), the same for 5 or 12 rows', async () => {
  const counts: number[] = [];
  for (const [limit, extra] of [
    [5, {}],
    [12, {}],
    [12, { include_owner: true }],
  ] as const) {
    const query = { session_name: session, limit, ...extra };
    await rest(t.url, 'GET', '/datasets', { key: alice.key, query });
    t.queries.length = 0;
    const res = await rest(t.url, 'GET', '/datasets', { key: alice.key, query });
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(limit);
    expect(res.body.total).toBe(12);
    expect(t.queries.filter((s) => /\bfrom api_key\b/.test(s))).toEqual([]);
    expect(t.queries.filter((s) => /\bfrom access_grant g where\b/.test(s))).toEqual([]);
    // projects, instruments and owners (asked for) are joined into the page (dataset-row.ts)
    const page = t.queries.filter((s) => /\bunique_id as _id\b/.test(s));
    expect(page).toHaveLength(1);
    expect(page[0].includes(' as _owner')).toBe('include_owner' in extra);
    const refs = t.queries.filter(
      (s) => !page.includes(s) && /\bfrom "?(project|instrument|app_user)\b/.test(s),
    );
    expect(refs).toEqual([]);
    counts.push(t.queries.length);
  }
  expect(counts).toEqual([2, 2, 2]);
});

test("a list's embargoes cost the same statements for 5 or 12 rows (batched: the dates, and whether the caller reads the bytes)", async () => {
  // one of the datasets under embargo, read by a project member (exempt) and by an outsider who
  // reads it only while it is public
  const embargoed = datasets[0];
  const until = new Date(Date.now() + 86_400_000).toISOString();
  const set = await rest(t.url, 'PUT', `/datasets/${embargoed}/embargo`, {
    key: admin.key,
    body: { embargo_until: until },
  });
  expect(set.status).toBe(200);
  const query = `query($n: Int!, $s: String!) { datasets(first: $n, filter: { sessionName: $s }) { edges { node {
    uniqueId embargo { embargoUntil filesOpenAt embargoed bytesReadable } } } } }`;
  const counts: number[] = [];
  for (const n of [5, 12]) {
    const { res, sql } = await statements(alice.key, query, { n, s: session });
    const edges = res.data.datasets.edges as {
      node: {
        uniqueId: string;
        embargo: { embargoUntil: string | null; embargoed: boolean; bytesReadable: boolean };
      };
    }[];
    expect(edges).toHaveLength(n);
    for (const { node } of edges) {
      const held = node.uniqueId === embargoed;
      expect(node.embargo.embargoed).toBe(held);
      expect(node.embargo.embargoUntil === null).toBe(!held);
      // alice is a project member: a role on every one of them
      expect(node.embargo.bytesReadable).toBe(true);
    }
    counts.push(sql.length);
  }
  expect(counts[1]).toBe(counts[0]);
  expect(counts[0]).toBeLessThanOrEqual(3);
  await rest(t.url, 'DELETE', `/datasets/${embargoed}/embargo`, { key: admin.key });
});
