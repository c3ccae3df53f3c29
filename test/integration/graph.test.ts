import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { addMember, grant, makeProject, makeUser, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  [owner, stranger] = await Promise.all([makeUser(t.app), makeUser(t.app)]);
});
afterAll(() => t.close());

const link = (path: string, key = owner.key) => rest(t.url, 'POST', path, { key });
const ids = (nodes: { id: string }[]) => nodes.map((n) => n.id).sort();

/**
 * A lineage four levels deep: wafer -> piece -> film (samples), film ~ scan (association),
 * scan -> fit (datasets); plus a sibling piece2 of piece.
 */
async function lineage(projectId?: string) {
  const p = projectId ? { project_id: projectId } : {};
  const wafer = await newSample(t.url, owner.key, { sample_name: 'wafer', sample_type: 'SP', ...p });
  const piece = await newSample(t.url, owner.key, { sample_name: 'piece', sample_type: 'PS', ...p });
  const piece2 = await newSample(t.url, owner.key, { sample_name: 'piece2', sample_type: 'PS', ...p });
  const film = await newSample(t.url, owner.key, { sample_name: 'film', sample_type: 'TF', ...p });
  const scan = await newDataset(t.url, owner.key, { dataset_name: 'scan', measurement: 'xrd', ...p });
  const fit = await newDataset(t.url, owner.key, { dataset_name: 'fit', measurement: 'analysis', ...p });
  await link(`/samples/${wafer}/children/${piece}?relationship_type=is_part_of`);
  await link(`/samples/${wafer}/children/${piece2}`);
  await link(`/samples/${piece}/children/${film}`);
  await link(`/datasets/${scan}/samples/${film}`);
  await link(`/datasets/${scan}/children/${fit}?relationship_type=is_derived_from`);
  return { wafer, piece, piece2, film, scan, fit };
}

describe('entity graph', () => {
  test('REST node-link: neighbours without recursive, the connected component with it', async () => {
    const l = await lineage();
    const near = await rest(t.url, 'GET', `/entity_graph_cte/${l.film}`, { key: owner.key });
    expect(near.status).toBe(200);
    expect(near.body).toMatchObject({ directed: true, multigraph: false, graph: {} });
    expect(ids(near.body.nodes)).toEqual([l.film, l.piece, l.scan].sort());
    expect(near.body.links).toEqual(near.body.edges);
    const full = await rest(t.url, 'GET', `/entity_graph_cte/${l.film}`, {
      key: owner.key,
      query: { recursive: 'True' },
    });
    expect(ids(full.body.nodes)).toEqual(Object.values(l).sort());
    const film = full.body.nodes.find((n: { id: string }) => n.id === l.film);
    expect(film).toMatchObject({ name: 'film', entity_type: 'sample', sample_type: 'TF', depth: 0 });
    expect(full.body.nodes.find((n: { id: string }) => n.id === l.fit)).toMatchObject({
      entity_type: 'dataset',
      measurement: 'analysis',
      depth: 2,
    });
    const edges = full.body.edges.map((e: { source: string; target: string; kind: string }) => [
      e.source,
      e.target,
      e.kind,
    ]);
    expect(edges).toEqual(
      expect.arrayContaining([
        [l.wafer, l.piece, 'sample_sample'],
        [l.wafer, l.piece2, 'sample_sample'],
        [l.piece, l.film, 'sample_sample'],
        [l.film, l.scan, 'sample_dataset'],
        [l.scan, l.fit, 'dataset_dataset'],
      ]),
    );
    expect(edges).toHaveLength(5);
    expect(full.body.edges.find((e: { target: string }) => e.target === l.piece).relationship_type).toBe(
      'is_part_of',
    );
    expect((await rest(t.url, 'GET', `/entity_graph_cte/${l.film}`, { key: stranger.key })).status).toBe(404);
  });

  test('GraphQL entityGraph: depth and direction, one SQL statement per traversal', async () => {
    const l = await lineage();
    const q = `query($id: ID!, $depth: Int, $dir: GraphDirection!) {
      entityGraph(id: $id, depth: $depth, direction: $dir) {
        nodes { id type name measurement sampleType depth firstThumbnail { id } }
        edges { source target kind relationshipType }
      } }`;
    const run = async (id: string, dir: string, depth?: number) => {
      const res = await gql(t.url, owner.key, q, { id, dir, depth });
      expect(res.errors).toBeUndefined();
      return res.data.entityGraph;
    };
    expect(ids((await run(l.film, 'ancestors')).nodes)).toEqual([l.film, l.piece, l.wafer].sort());
    expect(ids((await run(l.film, 'descendants')).nodes)).toEqual([l.film, l.scan, l.fit].sort());
    expect(ids((await run(l.film, 'descendants', 1)).nodes)).toEqual([l.film, l.scan].sort());
    expect(ids((await run(l.film, 'both', 0)).nodes)).toEqual([l.film]);
    const all = await run(l.fit, 'both');
    expect(ids(all.nodes)).toEqual(Object.values(l).sort());
    expect(all.nodes.find((n: { id: string }) => n.id === l.piece2)).toMatchObject({
      depth: 5,
      sampleType: 'PS',
    });
    expect(all.nodes.every((n: { firstThumbnail: unknown }) => n.firstThumbnail === null)).toBe(true);
    expect(all.edges).toContainEqual({
      source: l.scan,
      target: l.fit,
      kind: 'dataset_dataset',
      relationshipType: 'is_derived_from',
    });

    t.queries.length = 0;
    await run(l.fit, 'both');
    const recursive = t.queries.filter((s) => /with recursive/i.test(s));
    expect(recursive).toHaveLength(1);

    const bad = await gql(t.url, owner.key, q, { id: l.fit, dir: 'both', depth: -1 });
    expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  test('unreadable nodes and their edges are dropped, and the walk does not pass through them', async () => {
    const viewer = await makeUser(t.app);
    const l = await lineage();
    // the viewer may read everything but the piece between wafer and film
    for (const id of [l.wafer, l.piece2, l.film, l.scan, l.fit]) {
      await grant(
        t.app,
        id,
        id === l.scan || id === l.fit ? 'dataset' : 'sample',
        'user',
        viewer.user.uniqueId,
        'viewer',
      );
    }
    const res = await rest(t.url, 'GET', `/entity_graph_cte/${l.fit}`, {
      key: viewer.key,
      query: { recursive: 'True' },
    });
    expect(ids(res.body.nodes)).toEqual([l.film, l.scan, l.fit].sort());
    expect(JSON.stringify(res.body)).not.toContain(l.piece);
    expect(JSON.stringify(res.body)).not.toContain(l.wafer);
    const fromWafer = await rest(t.url, 'GET', `/entity_graph_cte/${l.wafer}`, {
      key: viewer.key,
      query: { recursive: 'True' },
    });
    expect(ids(fromWafer.body.nodes)).toEqual([l.wafer, l.piece2].sort());
  });

  test('project graph: every readable sample and dataset of the project and their edges', async () => {
    const project = await makeProject(t.app, owner.user);
    const member = await makeUser(t.app);
    await addMember(t.app, project, member.user, 'viewer');
    const l = await lineage(project.projectId);
    const outsider = await newDataset(t.url, owner.key, { dataset_name: 'elsewhere' });
    await link(`/datasets/${l.fit}/children/${outsider}`);
    const res = await rest(t.url, 'GET', `/project_graph/${project.projectId}`, { key: member.key });
    expect(ids(res.body.nodes)).toEqual(Object.values(l).sort());
    expect(res.body.edges).toHaveLength(5);
    expect(res.body.links).toEqual(res.body.edges);
    const strangerView = await rest(t.url, 'GET', `/project_graph/${project.uniqueId}`, {
      key: stranger.key,
    });
    expect(strangerView.body.nodes).toEqual([]);
    expect(strangerView.body.edges).toEqual([]);
    const gq = await gql(
      t.url,
      member.key,
      `query($p: String!) { projectGraph(project: $p) { nodes { id } edges { kind } } }`,
      {
        p: project.projectId,
      },
    );
    expect(gq.data.projectGraph.nodes).toHaveLength(6);
    expect((await rest(t.url, 'GET', '/project_graph/no-such-project', { key: member.key })).status).toBe(
      404,
    );
  });

  test('the depth is capped by GRAPH_MAX_DEPTH', async () => {
    const capped = await startTestApp({ GRAPH_MAX_DEPTH: '2' });
    try {
      const u = await makeUser(capped.app);
      const chain: string[] = [];
      for (let i = 0; i < 5; i++) chain.push(await newDataset(capped.url, u.key, { dataset_name: `c${i}` }));
      for (let i = 0; i < 4; i++) {
        await rest(capped.url, 'POST', `/datasets/${chain[i]}/children/${chain[i + 1]}`, { key: u.key });
      }
      const res = await rest(capped.url, 'GET', `/entity_graph_cte/${chain[0]}`, {
        key: u.key,
        query: { recursive: 'True' },
      });
      expect(ids(res.body.nodes)).toEqual(chain.slice(0, 3).sort());
      const deep = await gql(
        capped.url,
        u.key,
        `query($id: ID!) { entityGraph(id: $id, depth: 100) { nodes { id } } }`,
        {
          id: chain[0],
        },
      );
      expect(deep.data.entityGraph.nodes).toHaveLength(3);
    } finally {
      await capped.close();
    }
  });
});
