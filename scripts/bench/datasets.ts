import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/core/config';
import { createLogger } from '../../src/core/logger';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/core/db/embedded';
import { rawQuery } from '../../src/core/db/raw';
import { newMfid } from '../../src/core/ids';
import { createApp } from '../../src/app';
import { measure, ok, printTable, type Stats } from './lib';

/**
 * Seeds BENCH_DATASETS datasets (default 20 000; a quarter private to another user) and measures
 * list and single-read throughput and latency through REST and GraphQL, over real HTTP.
 * DATABASE_URL selects a PostgreSQL server; otherwise a throwaway embedded database is used.
 */
const N = Number(process.env.BENCH_DATASETS ?? 20000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

async function main(): Promise<void> {
  let embedded: EmbeddedPostgres | undefined;
  let url = process.env.DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedPostgres();
    url = embedded.url;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-bench-'));
  const config = loadConfig({
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SHUTDOWN_TIMEOUT_MS: '0',
  });
  const app = await createApp({ config, log: createLogger('silent'), databaseUrl: url });
  const port = await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  try {
    const em = app.orm.em.fork();
    const user = await app.services.user.create(em, { username: `bench-${Date.now()}` });
    const other = await app.services.user.create(em, { username: `bench-other-${Date.now()}` });
    const { secret } = await app.services.user.issueKey(em, user);
    const projectId = newMfid();
    await rawQuery(
      em,
      `insert into project (unique_id, project_id, title, owner_id) values (?, ?, 'Bench', ?)`,
      [projectId, `bench-${projectId}`, user.uniqueId],
    );
    const instrumentId = newMfid();
    await rawQuery(
      em,
      `insert into instrument (unique_id, instrument_id, instrument_name, owner_id) values (?, ?, ?, ?)`,
      [instrumentId, `bench-${instrumentId}`, `Bench ${instrumentId}`, user.uniqueId],
    );
    const seeded = process.hrtime.bigint();
    const ids: string[] = [];
    for (let start = 0; start < N; start += 1000) {
      const batch = Array.from({ length: Math.min(1000, N - start) }, (_, i) => {
        const id = newMfid();
        ids.push(id);
        return { id, i: start + i };
      });
      const values = batch.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
      const params = batch.flatMap(({ id, i }) => [
        id,
        `dataset ${i}`,
        i % 4 === 0 ? other.uniqueId : user.uniqueId,
        i % 4 === 0 ? null : projectId,
        instrumentId,
        ['XRD', 'TEM', 'SEM', 'PL'][i % 4],
        `session-${i % 50}`,
        i % 10 === 0,
      ]);
      await rawQuery(
        em,
        `insert into dataset (unique_id, dataset_name, owner_id, project_mfid, instrument_mfid, measurement, session_name, public) values ${values}`,
        params,
      );
    }
    await rawQuery(em, 'analyze dataset');
    console.log(
      `Seeded ${N} datasets in ${(Number(process.hrtime.bigint() - seeded) / 1e9).toFixed(1)} s on ${embedded ? 'the embedded database' : 'PostgreSQL'}.`,
    );

    const auth = { authorization: `Bearer ${secret}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const readable = ids.filter((_, i) => i % 4 !== 0);
    const gql = (query: string, variables: Record<string, unknown> = {}) =>
      fetch(`${base}/graphql`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ query, variables }),
      }).then(ok);
    const LIST = `query($after: String) { datasets(first: 100, after: $after) { edges { cursor node { uniqueId datasetName measurement ownerOrcid owner { username } project { projectId } instrument { instrumentName } } } } }`;
    const ONE = `query($id: ID!) { dataset(id: $id) { uniqueId datasetName owner { username } project { projectId } instrument { instrumentName } capabilities { canUpdate } } }`;

    const rows: [string, Stats][] = [];
    for (const c of [1, CONCURRENCY]) {
      rows.push([
        `REST list 100 (c=${c})`,
        await measure(REQUESTS, c, () =>
          fetch(`${base}/api/v2/datasets?limit=100`, { headers: auth })
            .then(ok)
            .then(() => undefined),
        ),
      ]);
      rows.push([
        `REST list 100, project + measurement filter (c=${c})`,
        await measure(REQUESTS, c, () =>
          fetch(`${base}/api/v2/datasets?limit=100&project_mfid=${projectId}&measurement=TEM`, {
            headers: auth,
          })
            .then(ok)
            .then(() => undefined),
        ),
      ]);
      rows.push([
        `REST single read (c=${c})`,
        await measure(REQUESTS, c, (i) =>
          fetch(`${base}/api/v2/datasets/${readable[i % readable.length]}`, { headers: auth })
            .then(ok)
            .then(() => undefined),
        ),
      ]);
      rows.push([
        `GraphQL list 100 + nested (c=${c})`,
        await measure(REQUESTS, c, () => gql(LIST).then(() => undefined)),
      ]);
      rows.push([
        `GraphQL single read (c=${c})`,
        await measure(REQUESTS, c, (i) =>
          gql(ONE, { id: readable[i % readable.length] }).then(() => undefined),
        ),
      ]);
    }
    const deepCursor = Buffer.from(`k:${ids[Math.floor(N / 10)]}`).toString('base64url');
    rows.push([
      `REST list 100 deep in the keyset (c=1)`,
      await measure(REQUESTS, 1, () =>
        fetch(`${base}/api/v2/datasets?limit=100&cursor=${deepCursor}`, { headers: auth })
          .then(ok)
          .then(() => undefined),
      ),
    ]);
    printTable(`Datasets: ${N} seeded, caller reads ${readable.length + Math.ceil(N / 40)} of them`, rows);
  } finally {
    app.server.closeAllConnections();
    await app.close();
    await embedded?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
