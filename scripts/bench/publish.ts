import { randomBytes } from 'node:crypto';
import { rawQuery } from '../../src/core/db/raw';
import { newMfid } from '../../src/core/ids';
import { benchService, ok, percentile } from './lib';

/**
 * Publishing and harvesting at size (issue 28, item 7; docs/benchmarks.md): on the database of
 * DATABASE_URL (a scratch database on that server), else a throwaway embedded one.
 *
 * 1. A publication of `BENCH_DATASETS` (1,000) datasets of one file each (seeded in SQL), made
 *    and published through the REST API: the time of each call.
 * 2. A full OAI-PMH harvest (ListRecords, oai_dc, pages of OAI_PAGE_SIZE = 100) of
 *    `BENCH_RECORDS` (1,000,000) publications inserted in bulk SQL (1 in 50 withdrawn): the mean
 *    page time of the first and the last tenth of the pages and their ratio (target ≤ 1.5), and
 *    that every record came exactly once. Then the first and last sitemap files.
 * 3. The landing page p50: `GET <BENCH_LANDING_BASE or the service>/publications/{id}` with
 *    `Accept: text/html`, `BENCH_LANDING_REQUESTS` (200) times, and the statuses it answered.
 */
const DATASETS = Number(process.env.BENCH_DATASETS ?? 1000);
const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const LANDING_REQUESTS = Number(process.env.BENCH_LANDING_REQUESTS ?? 200);
const CHUNK = 20_000;

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

async function main(): Promise<void> {
  const service = await benchService('bench_publish', { OAI_PAGE_SIZE: '100' });
  const { app, base } = service;
  try {
    const em = app.orm.em.fork();
    const user = await app.services.user.create(em, { username: 'bench-publish' });
    const key = (await app.services.user.issueKey(em, user)).secret;
    const project = newMfid();
    await rawQuery(em, `insert into project (unique_id, project_id, title, owner_id) values (?, ?, ?, ?)`, [
      project,
      `bench-${Date.now()}`,
      'Bench project',
      user.uniqueId,
    ]);

    // 1. a publication of DATASETS datasets, through the API
    const datasets = Array.from({ length: DATASETS }, () => newMfid());
    const rows = datasets.map((id, i) => ({
      id,
      file: newMfid(),
      name: `bench ${i}`,
      sha: randomBytes(32).toString('hex'),
    }));
    await rawQuery(
      em,
      `insert into dataset (unique_id, dataset_name, owner_id, project_mfid)
       select r.id, r.name, ?, ? from jsonb_to_recordset(?::jsonb) as r(id text, name text)`,
      [user.uniqueId, project, JSON.stringify(rows)],
    );
    await rawQuery(
      em,
      `insert into associated_file (unique_id, dataset_mfid, filename, size, sha256, storage_backend)
       select r.file, r.id, r.name || '.h5', 1048576, r.sha, 'local' from jsonb_to_recordset(?::jsonb) as r(id text, file text, name text, sha text)`,
      [JSON.stringify(rows)],
    );
    const call = async (method: string, path: string, body?: unknown) => {
      const t0 = process.hrtime.bigint();
      const out = (await ok(
        await fetch(`${base}/api/v2${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      )) as { id: string; state: string };
      return { out, ms: ms(t0) };
    };
    const created = await call('POST', '/publications', {
      dataset_ids: datasets,
      title: 'Bench publication',
      description: 'A publication of many datasets, made by the publish benchmark to time it.',
      creators: [{ name: 'Bench, Team' }],
      license: 'CC-BY-4.0',
    });
    const published = await call('POST', `/publications/${created.out.id}/publish`);
    if (published.out.state !== 'published') throw new Error('not published');
    console.log(`\n| publication of ${DATASETS} datasets (1 file each) | ms |\n|---|---:|`);
    console.log(`| create (POST /publications) | ${created.ms.toFixed(0)} |`);
    console.log(`| publish (POST /publications/{id}/publish) | ${published.ms.toFixed(0)} |`);

    // 2. RECORDS publications in bulk SQL, then a full harvest
    let t0 = process.hrtime.bigint();
    const metadata = JSON.stringify({
      title: 'Harvested record',
      description: 'A record inserted in bulk by the publish benchmark, for the OAI-PMH harvest.',
      creators: [{ name: 'Bench, Team', orcid: null, affiliations: [] }],
      license: 'CC-BY-4.0',
      keywords: ['bench'],
      funding: [],
      relatedIdentifiers: [],
      version: null,
    });
    const ids: string[] = [];
    for (let start = 0; start < RECORDS; start += CHUNK) {
      const chunk = Array.from({ length: Math.min(CHUNK, RECORDS - start) }, () => newMfid());
      ids.push(...chunk);
      await rawQuery(
        em,
        `insert into publication (unique_id, state, creator_id, metadata, dataset_ids, manifest, published_at,
           withdrawn_at, withdrawal_reason)
         select x.id, case when x.n % 50 = 0 then 'withdrawn' else 'published' end, ?, ?::jsonb, '[]'::jsonb,
           '[]'::jsonb, now(), case when x.n % 50 = 0 then now() end, case when x.n % 50 = 0 then 'bench' end
         from jsonb_array_elements_text(?::jsonb) with ordinality as x(id, n)`,
        [user.uniqueId, metadata, JSON.stringify(chunk)],
      );
      await rawQuery(
        em,
        `insert into publication_set (publication_id, project_mfid) select x.id, ? from jsonb_array_elements_text(?::jsonb) as x(id)`,
        [project, JSON.stringify(chunk)],
      );
    }
    await rawQuery(em, 'vacuum analyze publication');
    await rawQuery(em, 'vacuum analyze publication_set');
    console.log(`\nseeded ${RECORDS} records in ${(ms(t0) / 1000).toFixed(1)} s`);

    const pages: number[] = [];
    const seen = new Set<string>();
    let duplicates = 0;
    let query = 'verb=ListRecords&metadataPrefix=oai_dc';
    t0 = process.hrtime.bigint();
    for (;;) {
      const p0 = process.hrtime.bigint();
      const res = await fetch(`${base}/oai?${query}`);
      const xml = await res.text();
      pages.push(ms(p0));
      if (!res.ok || xml.includes('<error ')) throw new Error(`page ${pages.length}: ${xml.slice(0, 500)}`);
      for (const m of xml.matchAll(/<header(?: status="deleted")?><identifier>oai:[^:]+:([^<]+)</g)) {
        if (seen.has(m[1])) duplicates++;
        seen.add(m[1]);
      }
      const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(xml)?.[1];
      if (!token) break;
      query = `verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
    }
    const total = ms(t0);
    const tenth = Math.max(1, Math.floor(pages.length / 10));
    const first = mean(pages.slice(0, tenth));
    const last = mean(pages.slice(-tenth));
    const missing = ids.filter((id) => !seen.has(id)).length;
    console.log(`\n| OAI-PMH harvest (ListRecords oai_dc) | value |\n|---|---:|`);
    console.log(`| records in the repository | ${seen.size} |`);
    console.log(`| pages | ${pages.length} |`);
    console.log(`| total s | ${(total / 1000).toFixed(1)} |`);
    console.log(`| first tenth: mean page ms | ${first.toFixed(1)} |`);
    console.log(`| last tenth: mean page ms | ${last.toFixed(1)} |`);
    console.log(`| ratio last / first (target ≤ 1.5) | ${(last / first).toFixed(2)} |`);
    console.log(`| duplicates / bulk records missing | ${duplicates} / ${missing} |`);

    const index = await (await fetch(`${base}/sitemap.xml`)).text();
    const files = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    for (const n of [1, files.length]) {
      const s0 = process.hrtime.bigint();
      const res = await fetch(`${base}/sitemaps/${n}.xml`);
      const urls = (await res.text()).split('<url>').length - 1;
      console.log(`sitemap file ${n} of ${files.length}: ${urls} URLs in ${ms(s0).toFixed(0)} ms`);
    }

    // 3. the landing page
    const landing = process.env.BENCH_LANDING_BASE ?? base;
    const times: number[] = [];
    const statuses = new Map<number, number>();
    for (let i = 0; i < LANDING_REQUESTS; i++) {
      const id = ids[Math.floor(Math.random() * ids.length)];
      const l0 = process.hrtime.bigint();
      const res = await fetch(`${landing}/publications/${id}`, { headers: { accept: 'text/html' } });
      await res.arrayBuffer();
      times.push(ms(l0));
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    times.sort((a, b) => a - b);
    console.log(
      `\nlanding page GET ${landing}/publications/{id} (Accept: text/html), ${LANDING_REQUESTS} requests: ` +
        `p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  } finally {
    await service.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
