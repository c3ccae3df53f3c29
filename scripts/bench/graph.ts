import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../src/core/db/raw';
import { newMfid } from '../../src/core/ids';
import { benchService, ok, percentile } from './lib';

/**
 * The entity graph at size (`npm run bench:graph`): a project graph of `BENCH_GRAPH_NODES`
 * (default 10 000) datasets and samples — a four-way tree of datasets, samples in a tree of
 * their own, each associated with a dataset — against one of 100 nodes of the same shape, and
 * a dataset with `BENCH_GRAPH_CHILDREN` (default 10 000) children against one with 10. The
 * caller is an ordinary user reading the project through a membership. Rounds alternate the
 * cases (`BENCH_ROUNDS`, default 9); p50/p95 in milliseconds and the response size. The service
 * runs with GRAPH_MAX_NODES = the large graph's size, so the whole graph can come in one
 * response; the paged cases use pages of half of it. DATABASE_URL selects a PostgreSQL server,
 * otherwise an embedded database.
 */
const NODES = Number(process.env.BENCH_GRAPH_NODES ?? 10000);
const CHILDREN = Number(process.env.BENCH_GRAPH_CHILDREN ?? 10000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const PAGE = Math.ceil(NODES / 2);

const arr = (values: (string | null)[]) =>
  `{${values.map((v) => (v === null ? 'NULL' : `"${v}"`)).join(',')}}`;

/** A project of `n` nodes: 80% datasets in a four-way tree, 20% samples in a tree, each associated with a dataset. */
async function seedProject(em: EntityManager, owner: string, slug: string, n: number): Promise<string> {
  const project = newMfid();
  await rawQuery(em, 'insert into project (unique_id, project_id, title, owner_id) values (?, ?, ?, ?)', [
    project,
    slug,
    `Graph ${slug}`,
    owner,
  ]);
  const nd = Math.round(n * 0.8);
  const datasets = Array.from({ length: nd }, () => newMfid());
  const samples = Array.from({ length: n - nd }, () => newMfid());
  await rawQuery(
    em,
    `insert into dataset (unique_id, dataset_name, owner_id, project_mfid, measurement, public)
     select id, 'scan ' || ord, ?, ?, 'XRD', false from unnest(?::varchar[]) with ordinality as t(id, ord)`,
    [owner, project, arr(datasets)],
  );
  await rawQuery(
    em,
    `insert into sample (unique_id, sample_name, owner_id, project_mfid, public)
     select id, 'piece ' || ord, ?, ?, false from unnest(?::varchar[]) with ordinality as t(id, ord)`,
    [owner, project, arr(samples)],
  );
  const parentOf = (ids: string[]) => ids.slice(1).map((_, i) => ids[Math.floor(i / 4)]);
  await rawQuery(
    em,
    'insert into dataset_link (parent_mfid, child_mfid) select * from unnest(?::varchar[], ?::varchar[])',
    [arr(parentOf(datasets)), arr(datasets.slice(1))],
  );
  await rawQuery(
    em,
    'insert into sample_link (parent_mfid, child_mfid) select * from unnest(?::varchar[], ?::varchar[])',
    [arr(parentOf(samples)), arr(samples.slice(1))],
  );
  await rawQuery(
    em,
    'insert into dataset_sample (sample_mfid, dataset_mfid) select * from unnest(?::varchar[], ?::varchar[])',
    [arr(samples), arr(samples.map((_, j) => datasets[(j * 4) % nd]))],
  );
  return datasets[0];
}

/** A dataset with `n` child datasets. */
async function seedHub(em: EntityManager, owner: string, n: number): Promise<string> {
  const hub = newMfid();
  const children = Array.from({ length: n }, () => newMfid());
  await rawQuery(
    em,
    `insert into dataset (unique_id, dataset_name, owner_id, measurement, public)
     select id, 'child ' || ord, ?, 'TEM', false from unnest(?::varchar[]) with ordinality as t(id, ord)`,
    [owner, arr([hub, ...children])],
  );
  await rawQuery(
    em,
    'insert into dataset_link (parent_mfid, child_mfid) select ?, c from unnest(?::varchar[]) c',
    [hub, arr(children)],
  );
  return hub;
}

const NODE_FIELDS = 'nodes { id type name depth measurement } edges { source target kind }';

async function main() {
  const service = await benchService('bench_graph', { GRAPH_MAX_NODES: String(NODES) });
  const { app, base } = service;
  try {
    const em = app.orm.em.fork();
    const owner = await app.services.user.create(em, { username: 'graph-owner' });
    const caller = await app.services.user.create(em, { username: 'graph-caller' });
    const key = (await app.services.user.issueKey(em, caller)).secret;
    const t0 = Date.now();
    await seedProject(em, owner.uniqueId, 'graph-large', NODES);
    await seedProject(em, owner.uniqueId, 'graph-small', 100);
    const bigHub = await seedHub(em, caller.uniqueId, CHILDREN);
    const smallHub = await seedHub(em, caller.uniqueId, 10);
    for (const slug of ['graph-large', 'graph-small'])
      await rawQuery(
        em,
        `insert into project_member (project_mfid, user_id, role)
         select unique_id, ?, 'viewer' from project where project_id = ?`,
        [caller.uniqueId, slug],
      );
    await rawQuery(em, 'analyze');
    console.log(
      `seeded ${NODES} + 100 project nodes and hubs of ${CHILDREN} and 10 children in ${Date.now() - t0} ms`,
    );

    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const gql = async (query: string, variables: Record<string, unknown>) => {
      const res = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query, variables }),
      });
      const text = await res.text();
      const body = JSON.parse(text) as {
        data?: Record<string, { pageInfo: { endCursor: string | null } }>;
        errors?: unknown;
      };
      if (body.errors !== undefined || !res.ok) throw new Error(text.slice(0, 500));
      return { data: body.data ?? {}, bytes: text.length };
    };
    /** every page of a graph field; returns the bytes read and the pages */
    const pages = async (field: 'projectGraph' | 'entityGraph', arg: string, first: number) => {
      const query =
        field === 'projectGraph'
          ? `query($a: String!, $f: Int, $c: String) { projectGraph(project: $a, first: $f, after: $c) { ${NODE_FIELDS} pageInfo { endCursor } } }`
          : `query($a: ID!, $f: Int, $c: String) { entityGraph(id: $a, first: $f, after: $c) { ${NODE_FIELDS} pageInfo { endCursor } } }`;
      let bytes = 0;
      let n = 0;
      let after: string | null = null;
      do {
        const res = await gql(query, { a: arg, f: first, c: after });
        bytes += res.bytes;
        n++;
        after = res.data[field].pageInfo.endCursor;
      } while (after !== null);
      return { bytes, pages: n };
    };
    const firstPage = async (field: 'projectGraph' | 'entityGraph', arg: string, first: number) => {
      const query =
        field === 'projectGraph'
          ? `query($a: String!, $f: Int) { projectGraph(project: $a, first: $f) { ${NODE_FIELDS} truncated } }`
          : `query($a: ID!, $f: Int) { entityGraph(id: $a, first: $f) { ${NODE_FIELDS} truncated } }`;
      const res = await gql(query, { a: arg, f: first });
      return { bytes: res.bytes, pages: 1 };
    };
    const restGraph = async (path: string) => {
      const res = await fetch(`${base}/api/v2${path}`, { headers });
      const text = JSON.stringify(await ok(res));
      return { bytes: text.length, pages: 1 };
    };

    const cases: [string, () => Promise<{ bytes: number; pages: number }>][] = [
      ['project graph, 100 nodes (GraphQL)', () => firstPage('projectGraph', 'graph-small', NODES)],
      [
        `project graph, ${NODES} nodes in one response (GraphQL)`,
        () => firstPage('projectGraph', 'graph-large', NODES),
      ],
      [
        `project graph, ${NODES} nodes, every page of ${PAGE} (GraphQL)`,
        () => pages('projectGraph', 'graph-large', PAGE),
      ],
      ['project graph, 100 nodes (REST)', () => restGraph('/project_graph/graph-small')],
      [`project graph, ${NODES} nodes (REST, one response)`, () => restGraph('/project_graph/graph-large')],
      ['dataset with 10 children (GraphQL)', () => firstPage('entityGraph', smallHub, NODES)],
      [
        `dataset with ${CHILDREN} children, first page of ${PAGE}`,
        () => firstPage('entityGraph', bigHub, PAGE),
      ],
      [`dataset with ${CHILDREN} children, every page of ${PAGE}`, () => pages('entityGraph', bigHub, PAGE)],
      [`dataset with ${CHILDREN} children, first page of 100`, () => firstPage('entityGraph', bigHub, 100)],
    ];
    const times = cases.map(() => [] as number[]);
    const sizes = cases.map(() => ({ bytes: 0, pages: 0 }));
    for (const [, run] of cases) await run(); // warm-up
    for (let r = 0; r < ROUNDS; r++) {
      for (let i = 0; i < cases.length; i++) {
        const started = process.hrtime.bigint();
        sizes[i] = await cases[i][1]();
        times[i].push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }
    console.log(
      `\n${process.env.DATABASE_URL ? 'PostgreSQL server' : 'embedded database'}, ${ROUNDS} rounds`,
    );
    console.log('| case | requests | p50 ms | p95 ms | response KB |');
    console.log('|---|---:|---:|---:|---:|');
    cases.forEach(([name], i) => {
      const sorted = [...times[i]].sort((a, b) => a - b);
      console.log(
        `| ${name} | ${sizes[i].pages} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 95).toFixed(1)} | ${(sizes[i].bytes / 1024).toFixed(0)} |`,
      );
    });
  } finally {
    await service.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
