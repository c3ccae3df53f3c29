import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import pg from 'pg';
import { loadConfig } from '../../src/core/config';
import { createLogger } from '../../src/core/logger';
import { createApp } from '../../src/app';
import { newMfid } from '../../src/core/ids';
import { and } from '../../src/core/db/sql';
import { notHiddenByDeletion } from '../../src/modules/permission/deletion-visibility';
import { measure, ok, percentile, scratchDatabase, type Stats } from './lib';

/**
 * `npm run bench:compare`: the catalog service, PostGraphile 5, PostGraphile v4 and raw SQL side
 * by side on one PostgreSQL server and the same data (DATABASE_URL must name a PostgreSQL server;
 * see README). Seeds BENCH_DATASETS datasets (default 10 000) of which the benchmark caller reads
 * 55%; both PostGraphiles connect as a role of their own whose row-level security policy on
 * `dataset` is the very condition our service applies to that caller's dataset lists (built by
 * the service's own visibility code, parameters inlined), and answer the same document. Each case runs BENCH_ROUNDS rounds alternating the targets; p50/p95
 * pool the rounds' latencies, throughput is the median of the rounds. BENCH_CPU_PROF=<dir> writes
 * every server's CPU profile there; BENCH_TARGETS and BENCH_BASELINE below.
 */
const N = Number(process.env.BENCH_DATASETS ?? 10000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
/** only the cases whose name contains one of these (comma separated), e.g. `BENCH_CASES=GraphQL` */
const ONLY = (process.env.BENCH_CASES ?? '').split(',').filter((c) => c !== '');
/**
 * only these targets besides `ours` (comma separated, by the start of their name), e.g.
 * `BENCH_TARGETS=PostGraphile 5,baseline`
 */
const TARGETS = (process.env.BENCH_TARGETS ?? '').split(',').filter((c) => c !== '');
/**
 * Another build of this service (the directory holding its `dist`, e.g. main's checkout built
 * with `npm run build`) measured beside ours as the target `baseline`, on the same database and
 * caller: an A/B of a change in the same alternated rounds.
 */
const BASELINE = process.env.BENCH_BASELINE;

const OURS_LIST = `{ datasets(first: 50) { totalCount edges { cursor node {
  uniqueId datasetName measurement ownerOrcid owner { username } project { projectId title }
  instrument { instrumentName } keywords firstThumbnail { id thumbnailName mimeType }
  files(first: 1) { totalCount } } } } }`;

const PGL_LIST = `{ allDatasets(first: 50, orderBy: PRIMARY_KEY_DESC) { totalCount edges { cursor node {
  uniqueId datasetName measurement ownerId appUserByOwnerId { username }
  projectByProjectMfid { projectId title } instrumentByInstrumentMfid { instrumentName }
  datasetKeywordsByDatasetMfid { nodes { keywordByKeywordId { text } } }
  thumbnailsByDatasetMfid(first: 1, orderBy: PRIMARY_KEY_ASC) { nodes { id thumbnailName mimeType } }
  associatedFilesByDatasetMfid { totalCount } } } } }`;

/** PostGraphile 5 names the Relay global id `id`, and a column `id` `rowId`: the same document. */
const PGL5_LIST = PGL_LIST.replace('{ id thumbnailName', '{ id: rowId thumbnailName');

interface OursNode {
  uniqueId: string;
  datasetName: string;
  measurement: string | null;
  ownerOrcid: string;
  owner: { username: string } | null;
  project: { projectId: string; title: string } | null;
  instrument: { instrumentName: string } | null;
  keywords: string[];
  firstThumbnail: { id: number | string; thumbnailName: string; mimeType: string } | null;
  files: { totalCount: number };
}

interface PglNode {
  uniqueId: string;
  datasetName: string;
  measurement: string | null;
  ownerId: string;
  appUserByOwnerId: { username: string } | null;
  projectByProjectMfid: { projectId: string; title: string } | null;
  instrumentByInstrumentMfid: { instrumentName: string } | null;
  datasetKeywordsByDatasetMfid: { nodes: { keywordByKeywordId: { text: string } }[] };
  thumbnailsByDatasetMfid: { nodes: { id: number | string; thumbnailName: string; mimeType: string }[] };
  associatedFilesByDatasetMfid: { totalCount: number };
}

/** One page in a shape all servers' answers map to (keywords as a set: PostGraphile keeps no rank). */
function pageKey(nodes: OursNode[]): string {
  return JSON.stringify(
    nodes.map((n) => ({
      ...n,
      keywords: [...n.keywords].sort(),
      firstThumbnail: n.firstThumbnail && { ...n.firstThumbnail, id: String(n.firstThumbnail.id) },
    })),
  );
}

const oursPage = (edges: unknown[]): string => pageKey((edges as { node: OursNode }[]).map((e) => e.node));

const pglPage = (edges: unknown[]): string =>
  pageKey(
    (edges as { node: PglNode }[]).map(({ node: n }) => ({
      uniqueId: n.uniqueId,
      datasetName: n.datasetName,
      measurement: n.measurement,
      ownerOrcid: n.ownerId,
      owner: n.appUserByOwnerId,
      project: n.projectByProjectMfid,
      instrument: n.instrumentByInstrumentMfid,
      keywords: n.datasetKeywordsByDatasetMfid.nodes.map((k) => k.keywordByKeywordId.text),
      firstThumbnail: n.thumbnailsByDatasetMfid.nodes[0] ?? null,
      files: n.associatedFilesByDatasetMfid,
    })),
  );

/** A parameter inlined as an SQL literal (the policy text cannot take parameters). */
function literal(value: unknown): string {
  if (Array.isArray(value)) return value.map(literal).join(', ');
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  return `'${String(value).replace(/'/g, "''")}'`;
}

function inline(text: string, params: unknown[]): string {
  let i = 0;
  return text.replace(/\?/g, () => literal(params[i++]));
}

interface Server {
  proc: ChildProcess;
  base: string;
  statements: () => Promise<number>;
}

async function startServer(
  mode: 'ours' | 'postgraphile' | 'postgraphile5',
  env: Record<string, string>,
  script = path.join(__dirname, 'compare-server.js'),
): Promise<Server> {
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF]
    : [];
  const proc = spawn(process.execPath, [...profile, script, mode], {
    // both as deployed: the Dockerfile sets NODE_ENV=production (graphql-js then skips its
    // development-time checks, in both servers' copies)
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: proc.stdout }).once('line', resolve);
    proc.once('exit', (code) => {
      reject(new Error(`${mode} exited with ${String(code)}`));
    });
  });
  const { port, stats } = JSON.parse(line) as { port: number; stats: number };
  return {
    proc,
    base: `http://127.0.0.1:${port}`,
    statements: async () => Number(await (await fetch(`http://127.0.0.1:${stats}/`)).text()),
  };
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    console.error('bench:compare needs a PostgreSQL server: eval "$(scripts/pg-up.sh)" first (README)');
    process.exit(2);
  }
  const db = await scratchDatabase('bench_compare');
  const role = `bench_caller_${process.pid}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-compare-'));
  const servers: Server[] = [];
  const client = new pg.Client({ connectionString: db.url });
  try {
    // the schema, the caller and its key through the service itself
    const config = loadConfig({ DATABASE_URL: db.url, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ROLE: 'api' });
    const app = await createApp({ config, log: createLogger('silent'), databaseUrl: db.url });
    const em = app.orm.em.fork();
    const caller = await app.services.user.create(em, { username: 'bench-caller' });
    const other = await app.services.user.create(em, { username: 'bench-other' });
    const { secret } = await app.services.user.issueKey(em, caller);
    await client.connect();
    const seeded = Date.now();
    await seed(client, caller.uniqueId, other.uniqueId);
    console.log(`Seeded ${N} datasets in ${((Date.now() - seeded) / 1000).toFixed(1)} s.`);

    // the caller's visibility, as the service computes it for the caller's list
    const ctx = await app.contexts.forUser(caller.uniqueId, 'bench');
    const where = and(
      notHiddenByDeletion('d.unique_id'),
      await app.services.access.readableCondition(ctx, 'dataset', 'd'),
    );
    const condition = inline(where.sql, where.params);
    await app.close();
    await client.query(`create role ${role} login`);
    await client.query(`grant usage on schema public to ${role}`);
    await client.query(`grant select on all tables in schema public to ${role}`);
    await client.query(`alter table dataset enable row level security`);
    await client.query(
      `create policy caller_reads on dataset for select to ${role} using (${condition.replace(/\bd\./g, 'dataset.')})`,
    );
    const counted = await client.query<{ n: number }>(
      `select count(*)::int as n from dataset d where ${condition}`,
    );
    const visible = counted.rows[0].n;
    console.log(`The caller reads ${visible} of ${N} datasets (${((100 * visible) / N).toFixed(0)}%).`);

    const pglUrl = new URL(db.url);
    pglUrl.username = role;
    pglUrl.password = '';
    const ours = await startServer('ours', { DATABASE_URL: db.url, GRAPHQL_COMPILED: 'true' });
    // the same service with every operation on graphql-js: what compiled execution gains
    const oursJs = await startServer('ours', { DATABASE_URL: db.url, GRAPHQL_COMPILED: 'false' });
    const pgl = await startServer('postgraphile', { PGL_URL: pglUrl.toString() });
    const pgl5 = await startServer('postgraphile5', { PGL_URL: pglUrl.toString() });
    servers.push(ours, oursJs, pgl, pgl5);
    const baseline = BASELINE
      ? await startServer(
          'ours',
          { DATABASE_URL: db.url, GRAPHQL_COMPILED: 'true' },
          path.join(path.resolve(BASELINE), 'dist/scripts/bench/compare-server.js'),
        )
      : undefined;
    if (baseline) servers.push(baseline);
    const auth = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
    const post = (base: string, query: string, headers: Record<string, string>) =>
      fetch(`${base}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query }) })
        .then(ok)
        .then((body) => {
          if ((body as { errors?: unknown }).errors) throw new Error(JSON.stringify(body));
          return body as { data: Record<string, { totalCount: number; edges: unknown[] }> };
        });
    const pglHeaders = { 'content-type': 'application/json' };

    // same answers first: the same total and the same page (the same datasets with the same
    // related records) from all three
    const a = await post(ours.base, OURS_LIST, auth);
    const b = await post(pgl.base, PGL_LIST, pglHeaders);
    const b5 = await post(pgl5.base, PGL5_LIST, pglHeaders);
    const totals = [
      a.data.datasets.totalCount,
      b.data.allDatasets.totalCount,
      b5.data.allDatasets.totalCount,
    ];
    if (totals.some((t) => t !== visible)) {
      throw new Error(
        `totals differ: ours ${totals[0]}, PostGraphile 4 ${totals[1]}, PostGraphile 5 ${totals[2]}, SQL ${visible}`,
      );
    }
    const pages = [
      oursPage(a.data.datasets.edges),
      pglPage(b.data.allDatasets.edges),
      pglPage(b5.data.allDatasets.edges),
    ];
    if (pages.some((p) => p !== pages[0] || p === '[]')) {
      throw new Error(`pages differ (ours, PostGraphile 4, PostGraphile 5):\n${pages.join('\n')}`);
    }
    if (baseline) {
      const base = await post(baseline.base, OURS_LIST, auth);
      if (JSON.stringify(base.data) !== JSON.stringify(a.data))
        throw new Error('the baseline answers otherwise');
    }

    const rawList = `select coalesce(json_agg(x), '[]'::json) as items,
      (select count(*)::int from dataset d where ${condition}) as total
      from (select d.* from dataset d where ${condition} order by d.unique_id desc limit 1000) x`;
    const rawNested = `select json_build_object('totalCount', (select count(*)::int from dataset d where ${condition}),
      'nodes', coalesce(json_agg(json_build_object('uniqueId', d.unique_id, 'datasetName', d.dataset_name,
        'measurement', d.measurement, 'ownerOrcid', d.owner_id,
        'owner', (select json_build_object('username', u.username) from app_user u where u.unique_id = d.owner_id),
        'project', (select json_build_object('projectId', p.project_id, 'title', p.title) from project p where p.unique_id = d.project_mfid),
        'instrument', (select json_build_object('instrumentName', i.instrument_name) from instrument i where i.unique_id = d.instrument_mfid),
        'keywords', (select coalesce(json_agg(k.text), '[]'::json) from dataset_keyword dk join keyword k on k.id = dk.keyword_id where dk.dataset_mfid = d.unique_id),
        'firstThumbnail', (select json_build_object('id', t.id, 'thumbnailName', t.thumbnail_name, 'mimeType', t.mime_type) from thumbnail t where t.dataset_mfid = d.unique_id order by t.id limit 1),
        'files', json_build_object('totalCount', (select count(*)::int from associated_file f where f.dataset_mfid = d.unique_id))
      ) order by d.unique_id desc), '[]'::json)) as page
      from (select * from dataset d where ${condition} order by d.unique_id desc limit 50) d`;
    const sqlPool = new pg.Pool({ connectionString: db.url, max: CONCURRENCY });
    const rawTask = (text: string) => async () => {
      const res = await sqlPool.query(text);
      JSON.stringify(res.rows[0]);
    };

    type Target = [string, () => Promise<void>];
    const cases: { name: string; c: number; targets: Target[] }[] = [];
    for (const c of [1, CONCURRENCY]) {
      cases.push({
        name: `GraphQL list 50 + nested + totalCount (c=${c})`,
        c,
        targets: [
          ['ours', () => post(ours.base, OURS_LIST, auth).then(() => undefined)],
          ['ours on graphql-js', () => post(oursJs.base, OURS_LIST, auth).then(() => undefined)],
          ['PostGraphile 5', () => post(pgl5.base, PGL5_LIST, pglHeaders).then(() => undefined)],
          ['PostGraphile 4', () => post(pgl.base, PGL_LIST, pglHeaders).then(() => undefined)],
          ['raw SQL', rawTask(rawNested)],
          ...(baseline
            ? [['baseline', () => post(baseline.base, OURS_LIST, auth).then(() => undefined)] as Target]
            : []),
        ],
      });
    }
    for (const c of [1, CONCURRENCY]) {
      cases.push({
        name: `REST GET /api/v2/datasets?limit=1000 (c=${c})`,
        c,
        targets: [
          [
            'ours',
            () =>
              fetch(`${ours.base}/api/v2/datasets?limit=1000`, { headers: auth })
                .then(ok)
                .then(() => undefined),
          ],
          ['raw SQL', rawTask(rawList)],
        ],
      });
    }

    // statements per request, one request each after a warm-up
    const count = async (server: Server, task: () => Promise<void>) => {
      await task();
      const before = await server.statements();
      await task();
      return (await server.statements()) - before;
    };
    const statementCounts = {
      oursGraphql: await count(ours, cases[0].targets[0][1]),
      pgl5Graphql: await count(pgl5, cases[0].targets[2][1]),
      pglGraphql: await count(pgl, cases[0].targets[3][1]),
      oursRest: await count(ours, cases[2].targets[0][1]),
    };

    const selected = cases
      .filter(({ name }) => ONLY.length === 0 || ONLY.some((o) => name.includes(o)))
      .map((c) => ({
        ...c,
        targets: c.targets.filter(
          ([t]) => t === 'ours' || TARGETS.length === 0 || TARGETS.some((o) => t.startsWith(o)),
        ),
      }));
    console.log(`\n| case | target | p50 ms | p95 ms | req/s | p50 ratio | req/s ratio |`);
    console.log('|---|---|---:|---:|---:|---:|---:|');
    for (const { name, c, targets } of selected) {
      for (const [, task] of targets) await measure(Math.min(40, REQUESTS), c, () => task()); // warm-up
      const runs: Record<string, Stats[]> = Object.fromEntries(targets.map(([t]) => [t, []]));
      const latencies: Record<string, number[]> = Object.fromEntries(targets.map(([t]) => [t, []]));
      for (let round = 0; round < ROUNDS; round++) {
        for (const [target, task] of targets) {
          const lat = latencies[target];
          const stats = await measure(REQUESTS, c, async () => {
            const t0 = process.hrtime.bigint();
            await task();
            lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
          });
          runs[target].push(stats);
        }
      }
      const summary = targets.map(([target]) => {
        const lat = latencies[target].sort((x, y) => x - y);
        const rates = runs[target].map((s) => s.perSecond).sort((x, y) => x - y);
        return {
          target,
          p50: percentile(lat, 50),
          p95: percentile(lat, 95),
          rate: rates[Math.floor(rates.length / 2)],
        };
      });
      const mine = summary[0];
      for (const s of summary) {
        const ratio =
          s === mine ? '' : `${(mine.p50 / s.p50).toFixed(2)}× | ${(mine.rate / s.rate).toFixed(2)}×`;
        console.log(
          `| ${name} | ${s.target} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.rate.toFixed(1)} | ${ratio || ' | '} |`,
        );
      }
    }
    console.log(
      '\np50 ratio: ours ÷ the other (lower is better); req/s ratio: ours ÷ the other (higher is better).',
    );
    console.log(
      `SQL statements per request: GraphQL list — ours ${statementCounts.oursGraphql}, PostGraphile 5 ${statementCounts.pgl5Graphql}, PostGraphile 4 ${statementCounts.pglGraphql}, raw SQL 1; REST list — ours ${statementCounts.oursRest}, raw SQL 1.`,
    );
    await sqlPool.end();
  } finally {
    for (const s of servers) {
      s.proc.kill();
      await new Promise((resolve) => s.proc.once('exit', resolve));
    }
    await client.end().catch(() => undefined);
    await db.drop();
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`drop role if exists ${role}`).catch(() => undefined);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The data: N datasets (40% the caller's in the caller's project, 10% public, 5% in a project
 * the caller is a member of, 45% another user's private ones), two keywords, one thumbnail of
 * 4 KiB and three files each. Inserted set-wise from arrays of ids.
 */
async function seed(client: pg.Client, callerId: string, otherId: string): Promise<void> {
  const ids = Array.from({ length: N }, () => newMfid());
  const projects = [newMfid(), newMfid(), newMfid()];
  const instrument = newMfid();
  await client.query(
    `insert into project (unique_id, project_id, title, owner_id) values
     ($1, 'bench-own', 'Own', $4), ($2, 'bench-member', 'Member', $5), ($3, 'bench-other', 'Other', $5)`,
    [...projects, callerId, otherId],
  );
  await client.query(`insert into project_member (project_mfid, user_id, role) values ($1, $2, 'viewer')`, [
    projects[1],
    callerId,
  ]);
  await client.query(
    `insert into instrument (unique_id, instrument_id, instrument_name, owner_id) values ($1, 'bench-xrd', 'Bench XRD', $2)`,
    [instrument, otherId],
  );
  await client.query(
    `insert into dataset (unique_id, dataset_name, owner_id, project_mfid, instrument_mfid, measurement, session_name, public)
     select id, 'dataset ' || n, case when n % 20 < 8 then $2 else $3 end,
       case when n % 20 < 8 then $4 when n % 20 = 10 then $5 else $6 end, $7,
       (array['XRD','TEM','SEM','PL'])[n % 4 + 1], 'session-' || (n % 50), n % 20 in (8, 9)
     from unnest($1::text[]) with ordinality as t(id, n)`,
    [ids, callerId, otherId, ...projects, instrument],
  );
  await client.query(`insert into keyword (text) select 'keyword ' || n from generate_series(1, 40) n`);
  await client.query(
    `insert into dataset_keyword (dataset_mfid, keyword_id)
     select t.did, k.id from unnest($1::text[]) with ordinality as t(did, n)
     join keyword k on k.text in ('keyword ' || (n % 40 + 1), 'keyword ' || ((n + 7) % 40 + 1))`,
    [ids],
  );
  await client.query(
    `insert into thumbnail (dataset_mfid, thumbnail_name, mime_type, data)
     select id, 'thumb.jpg', 'image/jpeg', decode(repeat('ab', 4096), 'hex') from unnest($1::text[]) id`,
    [ids],
  );
  const fileIds = Array.from({ length: 3 * N }, () => newMfid());
  await client.query(
    `insert into associated_file (unique_id, dataset_mfid, filename, size, storage_backend, storage_key)
     select f, ($2::text[])[(n - 1) / 3 + 1], 'file-' || n || '.dat', 1024, 'fs', 'bench/' || f
     from unnest($1::text[]) with ordinality as t(f, n)`,
    [fileIds, ids],
  );
  await client.query('analyze');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
