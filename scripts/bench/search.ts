import { performance } from 'node:perf_hooks';
import { loadConfig } from '../../src/core/config';
import { createLogger } from '../../src/core/logger';
import { createApp, type App } from '../../src/app';
import { rawQuery } from '../../src/core/db/raw';
import { newMfid } from '../../src/core/ids';
import type { RequestContext } from '../../src/core/context';
import type { MetadataCondition } from '../../src/modules/metadata-store/metadata.filter';
import { scratchDatabase } from './lib';

/**
 * Metadata search and typed-filter latency over a seeded catalog, with and without the GIN
 * indexes. Usage: npm run bench:search  (BENCH_N datasets, default 100000; BENCH_RUNS timed runs
 * per query, default 20). With DATABASE_URL it creates, uses and drops a scratch database on
 * that server (BENCH_KEEP=1 keeps it, to explain queries); otherwise it runs on a throwaway
 * embedded database.
 */
const N = Number(process.env.BENCH_N ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);

const INDEXES: Record<string, string> = {
  scientific_metadata_data_idx:
    'create index scientific_metadata_data_idx on scientific_metadata using gin (data jsonb_path_ops)',
  scientific_metadata_search_idx:
    'create index scientific_metadata_search_idx on scientific_metadata using gin (search)',
};

/** Set-based seeding: one statement for the datasets, one for their metadata. */
async function seed(app: App, ownerId: string, projectMfid: string): Promise<void> {
  const em = app.orm.em.fork();
  const ids = Array.from({ length: N }, () => newMfid());
  await rawQuery(
    em,
    `insert into dataset (unique_id, dataset_name, measurement, owner_id, project_mfid, public)
     select id, 'run ' || g, (array['xrd', 'afm', 'sem', 'pl', 'uv-vis'])[1 + g % 5], ?, ?, false
     from unnest(string_to_array(?, ',')) with ordinality as t(id, g)`,
    [ownerId, projectMfid, ids.join(',')],
  );
  // varied documents: common and rare words, numbers, nested objects, arrays
  await rawQuery(
    em,
    `insert into scientific_metadata (resource_id, resource_type, data)
     select id, 'dataset', jsonb_build_object(
       'temperature', 250 + g % 200,
       'operator', (array['Alice Smith', 'Bob Jones', 'Carol White', 'Dan Brown'])[1 + g % 4],
       'sample', 'S-' || (g % 5000),
       'stage', jsonb_build_object('x', g % 1000, 'y', (g * 7) % 1000, 'tilt', (g % 30) - 15),
       'tags', jsonb_build_array((array['raw', 'calibrated', 'analyzed'])[1 + g % 3], 'batch' || (g % 100)),
       'notes', (array['calibration of the detector', 'anneal under argon', 'spin coating run',
                       'thermal drift check', 'beam alignment', 'dark frame', 'flat field',
                       'vacuum leak test', 'sample transfer', 'focus series'])[1 + g % 10]
                || ' lot' || (g % 1000) || case when g % 997 = 0 then ' serendipity' else '' end
     ) from unnest(string_to_array(?, ',')) with ordinality as t(id, g)`,
    [ids.join(',')],
  );
  await rawQuery(em, 'analyze dataset');
  await rawQuery(em, 'analyze scientific_metadata');
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function time(run: () => Promise<unknown>): Promise<{ p50: number; p95: number; n: number }> {
  for (let i = 0; i < 3; i++) await run();
  const samples: number[] = [];
  let n = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const result = await run();
    samples.push(performance.now() - started);
    n = Array.isArray(result) ? result.length : Number(result);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), n };
}

async function main(): Promise<void> {
  const db = await scratchDatabase('bench_search');
  const config = loadConfig({ ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent', DB_POOL_MAX: '4' });
  const app = await createApp({ config, log: createLogger('silent'), databaseUrl: db.url });
  try {
    const owner = await app.services.user.create(app.orm.em.fork(), { username: 'bench-owner' });
    const admin = await app.services.user.create(app.orm.em.fork(), {
      username: 'bench-admin',
      platformRole: 'admin',
    });
    const adminCtx = await app.contexts.forUser(admin.uniqueId, 'bench');
    const project = await app.services.project.create(adminCtx, {
      projectId: 'bench',
      projectLead: owner.uniqueId,
    });
    let started = performance.now();
    await seed(app, owner.uniqueId, project.uniqueId);
    console.log(
      `seeded ${N} datasets with metadata in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    // a fresh context per run: nothing is cached across requests
    const ctx = (): Promise<RequestContext> => app.contexts.forUser(owner.uniqueId, 'bench');
    const searches = ['serendipity', 'lot41 anneal', 'calibration', 'smith'];
    const filters: [string, MetadataCondition[]][] = [
      ['sample eq "S-42" (rare)', [{ path: 'sample', op: 'eq', value: 'S-42' }]],
      ['operator eq "Alice Smith" (25%)', [{ path: 'operator', op: 'eq', value: 'Alice Smith' }]],
      ['tags has "batch7" (1%)', [{ path: 'tags', op: 'eq', value: 'batch7' }]],
      ['operator contains "smith" (25%)', [{ path: 'operator', op: 'contains', value: 'smith' }]],
      ['temperature gt 445 (2%)', [{ path: 'temperature', op: 'gt', value: 445 }]],
      ['stage.tilt exists', [{ path: 'stage.tilt', op: 'exists' }]],
    ];

    const rows: string[][] = [];
    for (const phase of ['with index', 'without index']) {
      if (phase === 'without index') {
        const em = app.orm.em.fork();
        for (const name of Object.keys(INDEXES)) await rawQuery(em, `drop index ${name}`);
        await rawQuery(em, 'analyze scientific_metadata');
      }
      for (const q of searches) {
        const r = await time(async () => app.services.metadata.search(await ctx(), q, 20));
        rows.push([
          phase,
          `metadata search "${q}" (top 20)`,
          r.p50.toFixed(1),
          r.p95.toFixed(1),
          String(r.n),
        ]);
      }
      for (const [label, metadata] of filters) {
        const page = await time(
          async () =>
            (await app.services.dataset.list(await ctx(), { projectId: 'bench', metadata }, { limit: 100 }))
              .items,
        );
        rows.push([
          phase,
          `filter ${label}: page of 100`,
          page.p50.toFixed(1),
          page.p95.toFixed(1),
          String(page.n),
        ]);
        const count = await time(async () =>
          app.services.dataset.count(await ctx(), { projectId: 'bench', metadata }),
        );
        rows.push([
          phase,
          `filter ${label}: count`,
          count.p50.toFixed(1),
          count.p95.toFixed(1),
          String(count.n),
        ]);
      }
    }
    started = performance.now();
    const em = app.orm.em.fork();
    for (const ddl of Object.values(INDEXES)) await rawQuery(em, ddl);
    console.log(`recreated the indexes in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const widths = [14, 52, 9, 9, 8];
    const line = (cols: string[]) =>
      cols.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' ');
    console.log(`\n${N} datasets, ${RUNS} timed runs per query (after 3 warm-up runs), milliseconds:`);
    console.log(line(['', 'query', 'p50', 'p95', 'results']));
    for (const row of rows) console.log(line(row));
  } finally {
    await app.close();
    if (process.env.BENCH_KEEP) console.log(`kept the database: ${db.url}`);
    else await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
