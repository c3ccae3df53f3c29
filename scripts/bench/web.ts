import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { loadConfig } from '../../src/core/config';
import { createLogger } from '../../src/core/logger';
import { createApp, type App } from '../../src/app';
import { rawQuery } from '../../src/core/db/raw';
import { newMfid } from '../../src/core/ids';
import { PLAIN } from '../../src/modules/metadata-store/metadata-quantities';
import { initialJs, INITIAL_JS_BUDGET_BYTES } from '../lib/web-weight';
import { percentile, scratchDatabase } from './lib';

/**
 * The web app in the system Chromium over a seeded catalog: initial JavaScript (gzipped), time to
 * the first rows of the dataset list (plain, filtered, metadata condition) and time to a laid-out
 * 1,000-node project graph, from navigation start. Usage: npm run bench:web (BENCH_N datasets,
 * default 100000; BENCH_RUNS runs per case, default 7; BENCH_ONLY: only the cases whose name
 * contains it, e.g. `graph`; CHROMIUM_PATH, default /usr/bin/chromium). The graph case also prints
 * where its time went, from the page's performance marks (web/src/pages/Graph.tsx): the answer
 * arrived, the layout computed, the elements placed, the first frame drawn. BENCH_CPU_PROFILE=file:
 * the graph case's last run is recorded with Chromium's CPU profiler into that file (open it in
 * Chrome's DevTools) and its 15 functions with the most self time are printed (build the page
 * unminified to read their names: `npx vite build -c web/vite.config.mts --minify false`).
 */
const N = Number(process.env.BENCH_N ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const GRAPH = 1000;
const WAIT_MS = Number(process.env.BENCH_WAIT_MS ?? 120_000);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ONLY = process.env.BENCH_ONLY ?? '';
const CPU_PROFILE = process.env.BENCH_CPU_PROFILE ?? '';

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** The functions with the most self time in a CPU profile, in ms. */
function topSelf(profile: CpuProfile, count: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const f = byId.get(id);
    const name = f ? `${f.functionName || '(anonymous)'} ${path.basename(f.url)}:${f.lineNumber + 1}` : '?';
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => `| ${name} | ${ms.toFixed(0)} |`);
}
/** the graph page's marks, in the order they are set */
const PHASES = ['graph:answer', 'graph:layout', 'graph:laid-out', 'graph:placed', 'graph:drawn'];

async function seed(app: App, ownerId: string, bulk: string, graph: string): Promise<void> {
  const em = app.orm.em.fork();
  const ids = Array.from({ length: N - GRAPH }, () => newMfid());
  await rawQuery(
    em,
    `insert into dataset (unique_id, dataset_name, measurement, data_type, owner_id, project_mfid, public)
     select id, 'run ' || g, (array['xrd', 'afm', 'sem', 'pl', 'uv-vis'])[1 + g % 5], 'image', ?, ?, false
     from unnest(string_to_array(?, ',')) with ordinality as t(id, g)`,
    [ownerId, bulk, ids.join(',')],
  );
  await rawQuery(
    em,
    `insert into scientific_metadata (resource_id, resource_type, data)
     select id, 'dataset', jsonb_build_object('temperature', 250 + g % 200, 'sample', 'S-' || (g % 5000))
     from unnest(string_to_array(?, ',')) with ordinality as t(id, g)`,
    [ids.join(',')],
  );
  // the typed side index the numeric metadata conditions read (MetadataStore writes it with each
  // document; a seed that skips it leaves `temperature ≥ 440` matching nothing, and the case
  // waiting for rows that never come)
  await rawQuery(
    em,
    `insert into metadata_value (resource_id, path, dim, num)
     select id, 'temperature', ?, 250 + g % 200 from unnest(string_to_array(?, ',')) with ordinality as t(id, g)`,
    [PLAIN, ids.join(',')],
  );
  // the graph project: a tree of 1,000 datasets, each linked to a parent (fan-out 3)
  const tree = Array.from({ length: GRAPH }, () => newMfid());
  await rawQuery(
    em,
    `insert into dataset (unique_id, dataset_name, measurement, owner_id, project_mfid, public)
     select id, 'node ' || g, 'xrd', ?, ?, false from unnest(string_to_array(?, ',')) with ordinality as t(id, g)`,
    [ownerId, graph, tree.join(',')],
  );
  const links = tree.slice(1).map((child, i) => `${tree[Math.floor(i / 3)]}:${child}`);
  await rawQuery(
    em,
    `insert into dataset_link (parent_mfid, child_mfid)
     select split_part(l, ':', 1), split_part(l, ':', 2) from unnest(string_to_array(?, ',')) as t(l)`,
    [links.join(',')],
  );
  await rawQuery(em, 'analyze');
}

async function main(): Promise<void> {
  const js = initialJs();
  console.log(
    `initial JavaScript: ${(js.gzipBytes / 1024).toFixed(1)} KB gzipped (${js.files.join(', ')}); budget ${INITIAL_JS_BUDGET_BYTES / 1024} KB`,
  );
  const db = await scratchDatabase('bench_web');
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: db.url,
    LOG_LEVEL: 'silent',
    DB_POOL_MAX: '4',
    ROLE: 'api',
  });
  const app = await createApp({ config, log: createLogger('silent'), databaseUrl: db.url });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-web-'));
  try {
    const owner = await app.services.user.create(app.orm.em.fork(), { username: 'bench-owner' });
    const { secret } = await app.services.user.issueKey(app.orm.em.fork(), owner);
    const admin = await app.services.user.create(app.orm.em.fork(), {
      username: 'bench-admin',
      platformRole: 'admin',
    });
    const adminCtx = await app.contexts.forUser(admin.uniqueId, 'bench');
    const bulk = await app.services.project.create(adminCtx, {
      projectId: 'bench',
      projectLead: owner.uniqueId,
    });
    const graph = await app.services.project.create(adminCtx, {
      projectId: 'bench-graph',
      projectLead: owner.uniqueId,
    });
    const started = performance.now();
    await seed(app, owner.uniqueId, bulk.uniqueId, graph.uniqueId);
    console.log(
      `seeded ${N} datasets (${GRAPH} of them a linked tree) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const port = await app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${port}`;
    // the seed must be what the API lists, or every case waits for rows that never come
    const probe = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
      body: JSON.stringify({ query: '{ datasets(first: 1) { totalCount nodes { uniqueId } } }' }),
    });
    const listed = ((await probe.json()) as { data?: { datasets?: { totalCount?: number } } }).data?.datasets
      ?.totalCount;
    if (listed !== N) throw new Error(`the API lists ${String(listed)} of the ${N} seeded datasets`);

    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      viewport: { width: 1400, height: 900 },
    });
    // sign in as the page does (a session cookie from `POST /auth/key`), once for the context
    const signIn = await context.request.post(`${base}/auth/key`, {
      headers: { origin: base },
      data: { api_key: secret },
    });
    if (!signIn.ok()) throw new Error(`sign-in refused: ${signIn.status()} ${await signIn.text()}`);
    const allCases: [string, string, string][] = [
      ['list: first rows, no filter', '/', 'table.results tbody tr'],
      [
        'list: first rows, project + measurement',
        '/?project=bench&measurement=afm',
        'table.results tbody tr',
      ],
      [
        'list: first rows, metadata temperature ≥ 440',
        '/?project=bench&m=temperature%7Cgte%7C440',
        'table.results tbody tr',
      ],
      [
        `graph: ${GRAPH}-node project graph laid out`,
        '/projects/bench-graph/graph',
        `.graph[data-ready="true"][data-nodes="${GRAPH}"]`,
      ],
    ];
    const cases = allCases.filter(([name]) => name.includes(ONLY));
    const results: [string, number[]][] = cases.map(([name]) => [name, []]);
    const phases = new Map<string, number[]>(PHASES.map((p) => [p, []]));
    // alternate the cases run by run, so a slow moment of the machine does not land on one case
    for (let run = 0; run <= RUNS; run++) {
      for (const [i, [, url, selector]] of cases.entries()) {
        const page = await context.newPage();
        const profiling = CPU_PROFILE !== '' && run === RUNS && url.includes('/graph');
        const cdp = profiling ? await context.newCDPSession(page) : null;
        if (cdp) {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.start');
        }
        const t0 = performance.now();
        const problems: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error') problems.push(`console: ${m.text()}`);
        });
        page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
        await page.goto(base + url);
        try {
          await page.locator(selector).first().waitFor({ timeout: WAIT_MS });
        } catch (err) {
          // say what the page shows instead of only "timeout"
          const text = (
            await page
              .locator('main')
              .innerText()
              .catch(() => '')
          ).slice(0, 2000);
          throw new Error(
            `${url}: no ${selector} after ${WAIT_MS} ms. The page shows:\n${text}\n${problems.join('\n')}`,
            { cause: err },
          );
        }
        const ms = performance.now() - t0;
        if (run > 0 && url.includes('/graph')) {
          // the first frame comes after data-ready (a page without the marks has none: skipped)
          await page
            .waitForFunction(
              () => globalThis.performance.getEntriesByName('graph:drawn').length > 0,
              undefined,
              {
                timeout: 10_000,
              },
            )
            .catch(() => undefined);
          // globalThis: this file's `performance` is Node's, and the compiled function would name it
          const marks = await page.evaluate(() =>
            globalThis.performance
              .getEntriesByType('mark')
              .filter((e) => e.name.startsWith('graph:'))
              .map((e): [string, number] => [e.name, e.startTime]),
          );
          for (const [name, at] of marks) phases.get(name)?.push(at);
        }
        if (cdp) {
          const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
          fs.writeFileSync(CPU_PROFILE, JSON.stringify(profile));
          console.log(`\nCPU profile of the last graph run: ${CPU_PROFILE}; most self time:`);
          console.log('| function | self ms |\n|---|---:|');
          for (const line of topSelf(profile, 15)) console.log(line);
        }
        await page.close();
        if (run > 0) results[i][1].push(ms); // run 0 warms caches
      }
    }
    await context.close();
    console.log(
      `\nweb app over ${N} datasets, ${RUNS} runs each (median and worst, ms from navigation start)`,
    );
    console.log('| case | p50 ms | max ms |');
    console.log('|---|---:|---:|');
    for (const [name, samples] of results) {
      samples.sort((a, b) => a - b);
      console.log(
        `| ${name} | ${percentile(samples, 50).toFixed(0)} | ${samples[samples.length - 1].toFixed(0)} |`,
      );
    }
    if ([...phases.values()].some((v) => v.length)) {
      console.log(
        "\nthe graph case by phase (ms from navigation start, median; the page's performance marks)",
      );
      console.log('| mark | p50 ms | max ms |');
      console.log('|---|---:|---:|');
      for (const [name, samples] of phases) {
        if (!samples.length) continue;
        samples.sort((a, b) => a - b);
        console.log(
          `| ${name} | ${percentile(samples, 50).toFixed(0)} | ${samples[samples.length - 1].toFixed(0)} |`,
        );
      }
    }
  } finally {
    await app.close();
    await db.drop();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
