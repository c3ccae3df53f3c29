import { randomBytes } from 'node:crypto';
import { rawQuery } from '../../src/core/db/raw';
import { newMfid } from '../../src/core/ids';
import { encodeCursor } from '../../src/core/pagination';
import { benchService, ok, percentile } from './lib';

/**
 * A dataset of a hundred thousand files beside one of ten (`BENCH_FILES`, default 100 000), in
 * one database and one service. Each case alternates a request on the small and on the large
 * dataset (`BENCH_ROUNDS`, default 15; the first round is discarded) and prints p50/p95 of each
 * and the ratio of the p50s: adding a file (a 1 KiB form upload), reading the dataset (REST,
 * with its `size`), the first and a deep page of its files (GraphQL keyset; REST offset),
 * its download links, and the zip download's time to the first byte. Last, removal: a writer
 * creating datasets while the large dataset is removed, p50/max against the same writer alone.
 * DATABASE_URL selects a PostgreSQL server; otherwise the embedded database. `BENCH_KEEP=1`
 * keeps the database (on a server) and prints its URL, for EXPLAIN.
 */
const FILES = Number(process.env.BENCH_FILES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const BATCH = 20_000;

interface Setup {
  base: string;
  key: string;
  adminKey: string;
  small: string;
  large: string;
  deep: Record<string, string>;
  /** the MFID in the middle of each dataset's files */
  middle: Record<string, string>;
  close: () => Promise<void>;
}

async function setup(): Promise<Setup> {
  const service = await benchService('bench_files');
  const { app, base } = service;
  const em = app.orm.em.fork();
  const user = await app.services.user.create(em, { username: 'bench-files-owner' });
  const admin = await app.services.user.create(em, { username: 'bench-files-admin' });
  await rawQuery(em, 'update app_user set platform_role = ? where unique_id = ?', ['admin', admin.uniqueId]);
  const key = (await app.services.user.issueKey(em, user)).secret;
  const adminKey = (await app.services.user.issueKey(em, admin)).secret;
  const create = async (name: string) =>
    (
      (await ok(
        await fetch(`${base}/api/v2/datasets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ dataset_name: name }),
        }),
      )) as { unique_id: string }
    ).unique_id;
  const small = await create('ten files');
  const large = await create(`${FILES} files`);
  // every seeded file record points at one real 1 KiB object (the zip reads it)
  const seedFile = await addFile(base, key, small);
  const [{ storage_key: storageKey }] = await rawQuery<{ storage_key: string }>(
    em,
    'select storage_key from associated_file where unique_id = ?',
    [seedFile],
  );
  const started = process.hrtime.bigint();
  const seedFiles = async (dataset: string, n: number) => {
    for (let start = 0; start < n; start += BATCH) {
      const count = Math.min(BATCH, n - start);
      const ids = Array.from({ length: count }, () => newMfid());
      const names = ids.map((_, i) => `frame_${String(start + i).padStart(6, '0')}.tif`);
      const hashes = ids.map(() => randomBytes(32).toString('hex'));
      await rawQuery(
        em,
        `insert into associated_file (unique_id, dataset_mfid, filename, size, sha256, content_type, storage_backend, storage_key, storage_path)
         select id, ?, name, 1024, sha, 'image/tiff', 'gcs', ?, ? from unnest(?::text[], ?::text[], ?::text[]) as t(id, name, sha)`,
        [dataset, storageKey, storageKey, ...[ids, names, hashes].map((a) => `{${a.join(',')}}`)],
      );
    }
    await rawQuery(
      em,
      'update dataset set size = (select sum(size) from associated_file where dataset_mfid = ?) where unique_id = ?',
      [dataset, dataset],
    );
  };
  await seedFiles(small, 9);
  await seedFiles(large, FILES);
  await rawQuery(em, 'vacuum analyze associated_file');
  console.log(`Seeded ${FILES} files in ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s.`);
  const deep: Record<string, string> = {};
  const middle: Record<string, string> = {};
  for (const [dataset, n] of [
    [small, 10],
    [large, FILES + 1],
  ] as const) {
    const [row] = await rawQuery<{ unique_id: string }>(
      em,
      'select unique_id from associated_file where dataset_mfid = ? order by unique_id desc offset ? limit 1',
      [dataset, Math.floor(n / 2)],
    );
    deep[dataset] = encodeCursor(row.unique_id);
    middle[dataset] = row.unique_id;
  }
  return {
    base,
    key,
    adminKey,
    small,
    large,
    deep,
    middle,
    close: async () => {
      const keep = process.env.BENCH_KEEP === '1';
      await service.close(keep);
      if (keep) console.log(`Kept: ${service.url}`);
    },
  };
}

/** Uploads a 1 KiB file of fresh content (form upload); returns its MFID. */
async function addFile(base: string, key: string, dataset: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([randomBytes(1024)]), `added-${newMfid()}.bin`);
  const res = await fetch(`${base}/api/v2/datasets/${dataset}/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  return ((await ok(res)) as { mfid: string }).mfid;
}

type Case = (s: Setup, dataset: string) => Promise<unknown>;

const get =
  (route: (s: Setup, dataset: string) => string): Case =>
  (s, dataset) =>
    fetch(`${s.base}/api/v2${route(s, dataset)}`, { headers: { authorization: `Bearer ${s.key}` } }).then(ok);

const FILES_PAGE = `query($id: ID!, $after: String) { dataset(id: $id) { size files(first: 100, after: $after) {
  pageInfo { hasNextPage endCursor } nodes { uniqueId filename size sha256 } } } }`;

const graphql =
  (after: boolean): Case =>
  async (s, dataset) => {
    const body = (await ok(
      await fetch(`${s.base}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          query: FILES_PAGE,
          variables: { id: dataset, after: after ? s.deep[dataset] : null },
        }),
      }),
    )) as { errors?: unknown[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
  };

/** Time to the first byte of the zip; the rest is not read. */
const zipFirstByte: Case = async (s, dataset) => {
  const controller = new AbortController();
  const res = await fetch(`${s.base}/api/v2/datasets/${dataset}/download`, {
    headers: { authorization: `Bearer ${s.key}` },
    signal: controller.signal,
  });
  if (!res.ok || !res.body) throw new Error(`zip: ${res.status}`);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const first = await reader.read();
  if (first.done || first.value.byteLength === 0) throw new Error('zip: empty');
  controller.abort();
  await reader.cancel().catch(() => undefined);
};

const CASES: [string, Case][] = [
  ['add a file (1 KiB form upload)', (s, d) => addFile(s.base, s.key, d)],
  ['read the dataset (REST, with size)', get((_s, d) => `/datasets/${d}`)],
  ['files, first page of 100 (GraphQL)', graphql(false)],
  ['files, a page in the middle (GraphQL keyset)', graphql(true)],
  ['files, first 100 (REST)', get((_s, d) => `/datasets/${d}/files?limit=100`)],
  [
    'files, 100 in the middle (REST offset)',
    get((_s, d) => `/datasets/${d}/files?limit=100&offset=${FILES / 2}`),
  ],
  [
    'files, 100 in the middle (REST after)',
    get((s, d) => `/datasets/${d}/files?limit=100&after=${s.middle[d]}`),
  ],
  ['download links, first 100 (REST)', get((_s, d) => `/datasets/${d}/download_links?limit=100`)],
  ['zip download, time to first byte', zipFirstByte],
];

async function time(task: () => Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await task();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** A writer's dataset creations while `during` runs (or alone), in ms. */
async function writer(s: Setup, during?: Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  let done = false;
  void during?.finally(() => (done = true));
  for (let i = 0; i < 200 && (during ? !done : i < 30); i++) {
    out.push(
      await time(() =>
        fetch(`${s.base}/api/v2/datasets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${s.adminKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ dataset_name: `writer ${i}` }),
        }).then(ok),
      ),
    );
  }
  return out.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const s = await setup();
  try {
    console.log(`\nA dataset of 10 files vs one of ${FILES}, ${ROUNDS} alternating rounds per case, ms`);
    console.log(`| case | p50 10 | p95 10 | p50 ${FILES} | p95 ${FILES} | ratio p50 |`);
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const [name, run] of CASES) {
      const times: Record<string, number[]> = { small: [], large: [] };
      for (let round = 0; round <= ROUNDS; round++) {
        for (const which of round % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const)) {
          const ms = await time(() => run(s, which === 'small' ? s.small : s.large));
          if (round > 0) times[which].push(ms);
        }
      }
      const [a, b] = [times.small.sort((x, y) => x - y), times.large.sort((x, y) => x - y)];
      const p50a = percentile(a, 50);
      const p50b = percentile(b, 50);
      console.log(
        `| ${name} | ${p50a.toFixed(1)} | ${percentile(a, 95).toFixed(1)} | ${p50b.toFixed(1)} | ${percentile(b, 95).toFixed(1)} | ${(p50b / p50a).toFixed(2)} |`,
      );
    }
    const alone = await writer(s);
    const removal = fetch(`${s.base}/api/v2/resources/${s.large}?force=true`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${s.adminKey}` },
    }).then(ok);
    const t0 = process.hrtime.bigint();
    const during = await writer(s, removal);
    await removal;
    const removalMs = Number(process.hrtime.bigint() - t0) / 1e6;
    console.log(`\nRemoving the dataset of ${FILES} files took ${removalMs.toFixed(0)} ms.`);
    console.log('| another writer creating datasets | n | p50 ms | max ms |');
    console.log('|---|---:|---:|---:|');
    console.log(
      `| alone | ${alone.length} | ${percentile(alone, 50).toFixed(1)} | ${alone[alone.length - 1].toFixed(1)} |`,
    );
    console.log(
      `| during the removal | ${during.length} | ${percentile(during, 50).toFixed(1)} | ${(during[during.length - 1] ?? 0).toFixed(1)} |`,
    );
  } finally {
    await s.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
