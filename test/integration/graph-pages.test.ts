import { startTestApp, type TestApp } from '../support/app';
import { makeProject, makeUser, type TestUser } from '../support/factories';
import { gql, rest } from '../support/http';
import { newDataset, newSample } from '../support/catalog';
import { rawQuery } from '../../src/core/db/raw';

/**
 * Graphs larger than a page: the nodes come a page at a time in the graph's order, each edge
 * exactly once and never before both of its ends, and the whole graph read through the pages
 * is the graph (GRAPH_MAX_NODES is 10 here; the graph has 23 nodes).
 */
let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let parent: string;
let projectSlug: string;
const nodes = new Set<string>();
/** "source>target" of every edge alice may see */
const edges = new Set<string>();

const CHILDREN = 14;

beforeAll(async () => {
  t = await startTestApp({ GRAPH_MAX_NODES: '10' });
  [alice, bob] = [await makeUser(t.app), await makeUser(t.app)];
  const project = await makeProject(t.app, alice.user);
  projectSlug = project.projectId;
  const p = { project_id: project.projectId };
  parent = await newDataset(t.url, alice.key, p);
  nodes.add(parent);
  const em = t.app.orm.em.fork();
  for (let i = 0; i < CHILDREN; i++) {
    const child = await newDataset(t.url, alice.key, p);
    await rawQuery(em, 'insert into dataset_link (parent_mfid, child_mfid) values (?, ?)', [parent, child]);
    nodes.add(child);
    edges.add(`${parent}>${child}`);
  }
  // samples: a wafer with four pieces, the first associated with the parent dataset
  const wafer = await newSample(t.url, alice.key, p);
  nodes.add(wafer);
  for (let i = 0; i < 4; i++) {
    const piece = await newSample(t.url, alice.key, p);
    await rawQuery(em, 'insert into sample_link (parent_mfid, child_mfid) values (?, ?)', [wafer, piece]);
    nodes.add(piece);
    edges.add(`${wafer}>${piece}`);
    if (i === 0) {
      await rawQuery(em, 'insert into dataset_sample (sample_mfid, dataset_mfid) values (?, ?)', [
        piece,
        parent,
      ]);
      edges.add(`${piece}>${parent}`);
    }
  }
  // a child alice may not read: never a node, never an edge, on no page
  const hidden = await newDataset(t.url, bob.key, { public: false });
  await rawQuery(em, 'insert into dataset_link (parent_mfid, child_mfid) values (?, ?)', [parent, hidden]);
});
afterAll(() => t.close());

interface Page {
  nodes: { id: string; type: string; depth: number }[];
  edges: { source: string; target: string }[];
  truncated: boolean;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** Reads every page; checks order, single delivery and that edges follow their ends. */
function collect(pages: Page[], order: (n: Page['nodes'][number]) => string) {
  const seen: string[] = [];
  const seenEdges: string[] = [];
  for (const page of pages) {
    for (const n of page.nodes) seen.push(n.id);
    for (const e of page.edges) {
      expect(seen).toContain(e.source);
      expect(seen).toContain(e.target);
      seenEdges.push(`${e.source}>${e.target}`);
    }
  }
  const keys = pages.flatMap((p) => p.nodes.map(order));
  expect(keys).toEqual([...keys].sort());
  expect(new Set(seen).size).toBe(seen.length);
  expect(new Set(seenEdges).size).toBe(seenEdges.length);
  return { nodes: new Set(seen), edges: new Set(seenEdges) };
}

const GRAPH = `nodes { id type depth } edges { source target } truncated pageInfo { hasNextPage endCursor }`;

async function allPages(field: 'entityGraph' | 'projectGraph', first: number): Promise<Page[]> {
  const query =
    field === 'entityGraph'
      ? `query($id: ID!, $first: Int, $after: String) { entityGraph(id: $id, first: $first, after: $after) { ${GRAPH} } }`
      : `query($id: String!, $first: Int, $after: String) { projectGraph(project: $id, first: $first, after: $after) { ${GRAPH} } }`;
  const pages: Page[] = [];
  let after: string | null = null;
  do {
    const res = await gql(t.url, alice.key, query, {
      id: field === 'entityGraph' ? parent : projectSlug,
      first,
      after,
    });
    expect(res.errors).toBeUndefined();
    const page = res.data[field] as Page;
    expect(page.nodes.length).toBeLessThanOrEqual(first);
    expect(page.truncated).toBe(page.pageInfo.hasNextPage);
    pages.push(page);
    after = page.pageInfo.endCursor;
    expect(pages.length).toBeLessThan(30);
  } while (after !== null);
  return pages;
}

const pad = (n: number) => String(n).padStart(5, '0');

describe('graph pages', () => {
  test.each([3, 7, 10])('entityGraph, %i nodes a page: the whole component, nearest first', async (first) => {
    const pages = await allPages('entityGraph', first);
    expect(pages).toHaveLength(Math.ceil(nodes.size / first));
    const got = collect(pages, (n) => `${pad(n.depth)}:${n.type}:${n.id}`);
    expect(got.nodes).toEqual(nodes);
    expect(got.edges).toEqual(edges);
    expect(pages[0].nodes[0]).toMatchObject({ id: parent, depth: 0 });
  });

  test.each([4, 10])('projectGraph, %i nodes a page: datasets, then samples, by MFID', async (first) => {
    const pages = await allPages('projectGraph', first);
    expect(pages).toHaveLength(Math.ceil(nodes.size / first));
    const got = collect(pages, (n) => `${n.type}:${n.id}`);
    expect(got.nodes).toEqual(nodes);
    expect(got.edges).toEqual(edges);
  });

  test('a first page holds the edges between its own nodes, as an unpaged graph did', async () => {
    const res = await gql(t.url, alice.key, `{ entityGraph(id: "${parent}") { ${GRAPH} } }`);
    const page = res.data.entityGraph as Page;
    expect(page.nodes).toHaveLength(10);
    expect(page.truncated).toBe(true);
    const ids = new Set(page.nodes.map((n) => n.id));
    for (const e of page.edges) expect(ids.has(e.source) && ids.has(e.target)).toBe(true);
  });

  test('REST node-link: limit and after, the next cursor in the graph attributes', async () => {
    const seen = new Set<string>();
    const seenEdges = new Set<string>();
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await rest(t.url, 'GET', `/project_graph/${projectSlug}`, {
        key: alice.key,
        query: after === undefined ? { limit: '6' } : { limit: '6', after },
      });
      expect(res.status).toBe(200);
      pages++;
      for (const n of res.body.nodes as { id: string }[]) seen.add(n.id);
      for (const e of res.body.edges as { source: string; target: string }[])
        seenEdges.add(`${e.source}>${e.target}`);
      after = (res.body.graph as { next?: string }).next;
      if (after === undefined) {
        expect(res.body.graph).toEqual({});
        break;
      }
      expect(res.body.graph.truncated).toBe(true);
    }
    expect(pages).toBe(Math.ceil(nodes.size / 6));
    expect(seen).toEqual(nodes);
    expect(seenEdges).toEqual(edges);

    const first = await rest(t.url, 'GET', `/entity_graph_cte/${parent}`, {
      key: alice.key,
      query: { recursive: 'True', limit: '5' },
    });
    expect(first.body.nodes).toHaveLength(5);
    const second = await rest(t.url, 'GET', `/entity_graph_cte/${parent}`, {
      key: alice.key,
      query: { recursive: 'True', limit: '5', after: first.body.graph.next as string },
    });
    expect(second.body.nodes).toHaveLength(5);
    const firstIds = (first.body.nodes as { id: string }[]).map((n) => n.id);
    for (const n of second.body.nodes as { id: string }[]) expect(firstIds).not.toContain(n.id);
  });

  test('bad page arguments are refused; an unreadable focal node is missing on every page', async () => {
    const badQueries: Record<string, string>[] = [
      { limit: '0' },
      { limit: '11' },
      { after: 'not-a-cursor' },
      { after: 'Zzz' },
    ];
    for (const query of badQueries) {
      const res = await rest(t.url, 'GET', `/project_graph/${projectSlug}`, { key: alice.key, query });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    const bad = await gql(t.url, alice.key, `{ entityGraph(id: "${parent}", first: 0) { truncated } }`);
    expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const cursor = (await allPages('entityGraph', 10))[0].pageInfo.endCursor;
    const asBob = await gql(
      t.url,
      bob.key,
      `query($a: String) { entityGraph(id: "${parent}", after: $a) { truncated } }`,
      { a: cursor },
    );
    expect(asBob.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
