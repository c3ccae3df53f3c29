import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { addMember, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { png } from '../support/fixtures';

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
  t = await startTestApp();
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

const onThumbnails = (sql: string[]) => sql.filter((s) => /\bfrom "?thumbnail"?\b/.test(s));
const onFiles = (sql: string[]) => sql.filter((s) => /\bfrom "?associated_file"?\b/.test(s));

test('thumbnail lists never select the image bytes unless thumbnailB64str is asked', async () => {
  const meta = await statements(admin.key, LIST, { n: 12, s: session });
  const listed = onThumbnails(meta.sql);
  expect(listed).toHaveLength(1);
  expect(listed[0]).not.toMatch(/\*|\bdata\b/);
  const fragments = await statements(
    admin.key,
    `query($s: String!) { datasets(first: 12, filter: { sessionName: $s }) { nodes { ...N } } }
     fragment N on Dataset { firstThumbnail { ... on Thumbnail { id } } thumbnails { ...T } }
     fragment T on Thumbnail { thumbnailName }`,
    { s: session },
  );
  expect(onThumbnails(fragments.sql).filter((s) => /\bdata\b|\*/.test(s))).toEqual([]);
  const thumbs = meta.res.data.datasets.edges.map((e: any) => e.node.firstThumbnail);
  expect(thumbs.filter((x: unknown) => x === null)).toHaveLength(3);

  const withBytes = `query($s: String!) { datasets(first: 12, filter: { sessionName: $s }) { nodes {
    firstThumbnail { thumbnailName thumbnailB64str } thumbnails { id thumbnailB64str } } } }`;
  const bytes = await statements(admin.key, withBytes, { s: session });
  const selects = onThumbnails(bytes.sql);
  // the bytes only because thumbnailB64str is selected: one batch for first, one for all
  expect(selects).toHaveLength(2);
  expect(selects.every((s) => /\bdata\b/.test(s) && !s.includes('*'))).toBe(true);
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
  const files = onFiles(counts.sql);
  expect(files).toHaveLength(1);
  expect(files[0]).toMatch(/count\(\*\)/);
  expect(files[0]).not.toMatch(/row_number/);
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
  expect(onFiles(both.sql)).toHaveLength(2);
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
