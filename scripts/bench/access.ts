import { performance } from 'node:perf_hooks';
import { loadConfig } from '../../src/core/config';
import { createLogger } from '../../src/core/logger';
import { createApp, type App } from '../../src/app';
import { rawQuery } from '../../src/core/db/raw';
import { newMfid } from '../../src/core/ids';
import type { RequestContext } from '../../src/core/context';
import type { DatasetFilter } from '../../src/modules/dataset/dataset.query';
import { percentile, scratchDatabase } from './lib';

/**
 * Access-control costs over a seeded catalog: the dataset collection as a grantee, and with
 * the `accessible_to_user` / `accessible_to_project` selectors; and the reassignment preview
 * (every member of both projects asked of the policy) and confirm as projects grow.
 * Usage: npm run bench:access  (BENCH_N datasets, default 50000; BENCH_RUNS timed runs, default
 * 10). With DATABASE_URL it uses a scratch database on that server; otherwise an embedded one.
 */
const N = Number(process.env.BENCH_N ?? 50_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const MEMBERS = [10, 100, 1000];

async function users(app: App, n: number, prefix: string): Promise<string[]> {
  const ids = Array.from({ length: n }, () => newMfid());
  await rawQuery(
    app.orm.em.fork(),
    `insert into app_user (unique_id, username) select id, ? || g from unnest(string_to_array(?, ',')) with ordinality as t(id, g)`,
    [prefix, ids.join(',')],
  );
  return ids;
}

async function project(app: App, lead: string, slug: string, members: string[]): Promise<string> {
  const em = app.orm.em.fork();
  const mfid = newMfid();
  await rawQuery(em, 'insert into project (unique_id, project_id, owner_id) values (?, ?, ?)', [
    mfid,
    slug,
    lead,
  ]);
  if (members.length) {
    await rawQuery(
      em,
      `insert into project_member (project_mfid, user_id, role)
       select ?, id, (array['viewer', 'contributor', 'editor'])[1 + g % 3] from unnest(string_to_array(?, ',')) with ordinality as t(id, g)`,
      [mfid, members.join(',')],
    );
  }
  return mfid;
}

/** N datasets of the project, owned by `owner`: 10% granted to `grantee`, 5% public. */
async function seed(app: App, owner: string, projectMfid: string, grantee: string): Promise<void> {
  const em = app.orm.em.fork();
  const ids = Array.from({ length: N }, () => newMfid());
  await rawQuery(
    em,
    `insert into dataset (unique_id, dataset_name, owner_id, project_mfid, public)
     select id, 'run ' || g, ?, ?, g % 20 = 0 from unnest(string_to_array(?, ',')) with ordinality as t(id, g)`,
    [owner, projectMfid, ids.join(',')],
  );
  await rawQuery(
    em,
    `insert into access_grant (resource_id, resource_type, principal_type, principal_id, permission)
     select id, 'dataset', 'user', ?, 'viewer' from unnest(string_to_array(?, ',')) with ordinality as t(id, g)
     where g % 10 = 0`,
    [grantee, ids.join(',')],
  );
  await rawQuery(em, 'analyze');
}

async function time(run: () => Promise<unknown>): Promise<{ p50: number; p95: number; n: number }> {
  await run();
  const samples: number[] = [];
  let n = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const result = await run();
    samples.push(performance.now() - started);
    n = typeof result === 'number' ? result : Array.isArray(result) ? result.length : 0;
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), n };
}

async function main(): Promise<void> {
  const db = await scratchDatabase('bench_access');
  const config = loadConfig({ ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent', DB_POOL_MAX: '4' });
  const app = await createApp({ config, log: createLogger('silent'), databaseUrl: db.url });
  try {
    const [owner, grantee, admin, member] = await users(app, 4, 'bench-');
    await rawQuery(app.orm.em.fork(), 'update app_user set platform_role = ? where unique_id = ?', [
      'admin',
      admin,
    ]);
    const main = await project(app, owner, 'bench-main', [member]);
    const started = performance.now();
    await seed(app, owner, main, grantee);
    console.log(`seeded ${N} datasets in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // a fresh context per run: nothing is cached across requests
    const as = (id: string): Promise<RequestContext> => app.contexts.forUser(id, 'bench');
    const rows: string[][] = [];
    const collection = async (label: string, who: string, filter: DatasetFilter) => {
      const page = await time(
        async () => (await app.services.dataset.list(await as(who), filter, { limit: 100 })).items,
      );
      const count = await time(async () => app.services.dataset.count(await as(who), filter));
      rows.push([`${label}: page of 100`, page.p50.toFixed(1), page.p95.toFixed(1), String(page.n)]);
      rows.push([`${label}: count`, count.p50.toFixed(1), count.p95.toFixed(1), String(count.n)]);
    };
    await collection('datasets as a grantee (10% granted, 5% public)', grantee, {});
    await collection('as admin, accessible_to_user=grantee', admin, { accessibleToUser: [grantee] });
    await collection('as member, accessible_to_project=main', member, {
      accessibleToProject: ['bench-main'],
    });
    await collection('as owner, both selectors', owner, {
      accessibleToUser: [owner],
      accessibleToProject: ['bench-main'],
    });

    for (const m of MEMBERS) {
      const from = await project(app, owner, `bench-from-${m}`, await users(app, m, `from${m}-`));
      await project(app, owner, `bench-to-${m}`, await users(app, m, `to${m}-`));
      const ids: string[] = [];
      for (let i = 0; i <= RUNS + 1; i++) {
        const id = newMfid();
        await rawQuery(
          app.orm.em.fork(),
          'insert into dataset (unique_id, owner_id, project_mfid) values (?, ?, ?)',
          [id, owner, from],
        );
        ids.push(id);
      }
      const preview = await time(async () => {
        const r = await app.services.transfer.reassignProject(await as(owner), ids[0], {
          projectId: `bench-to-${m}`,
        });
        return r.preview.gains.length + r.preview.losses.length;
      });
      let next = 0;
      const confirm = await time(async () => {
        await app.services.transfer.reassignProject(await as(owner), ids[next++], {
          projectId: `bench-to-${m}`,
          confirm: true,
        });
        return 1;
      });
      rows.push([
        `reassignment preview, ${m} + ${m} members`,
        preview.p50.toFixed(1),
        preview.p95.toFixed(1),
        String(preview.n),
      ]);
      rows.push([
        `reassignment confirm, ${m} + ${m} members`,
        confirm.p50.toFixed(1),
        confirm.p95.toFixed(1),
        '1',
      ]);
    }

    const widths = [56, 9, 9, 8];
    const line = (cols: string[]) =>
      cols.map((c, i) => (i < 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' ');
    console.log(`\n${N} datasets, ${RUNS} timed runs per case (after a warm-up run), milliseconds:`);
    console.log(line(['case', 'p50', 'p95', 'results']));
    for (const row of rows) console.log(line(row));
  } finally {
    await app.close();
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
