import { ServiceProcesses, freePort } from '../support/process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as fx from '../support/fixtures';
import { seedEmbeddedDb } from '../support/embedded-template';

/**
 * The worker role as its own process: an API process (role `api`, the embedded database served
 * on a known port) and a worker process (`ROLE=worker`) sharing the database and DATA_DIR; then
 * the re-ingestion command line. Uses the compiled service (built by `pretest`).
 */
const ADMIN_KEY = 'worker-e2e-admin-key-0123456789abcdef';
const processes = new ServiceProcesses();
const run = processes.run.bind(processes);

let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-worker-e2e-'));
  // a migrated empty database: a first start is process.test.ts's subject, not this file's
  seedEmbeddedDb(dataDir);
});
afterAll(() => {
  processes.killAll();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('ROLE=worker ingests what the API records; SIGTERM stops it cleanly; npm run ingest re-ingests', async () => {
  const [port, dbPort, metricsPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const base = `http://127.0.0.1:${port}/api/v2`;
  const common = { DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN_KEY, JOB_POLL_INTERVAL_MS: '100' };
  const api = await run(
    'main.js',
    [],
    { ...common, ROLE: 'api', PORT: String(port), EMBEDDED_DB_PORT: String(dbPort) },
    'catalog service listening',
    180_000,
  );
  const databaseUrl = `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres`;
  const worker = await run(
    'main.js',
    [],
    { ...common, ROLE: 'worker', DATABASE_URL: databaseUrl, METRICS_PORT: String(metricsPort) },
    'metrics and health listening',
    180_000,
  );
  try {
    const auth = { authorization: `Bearer ${ADMIN_KEY}` };
    const created = await fetch(`${base}/datasets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ dataset_name: 'worker e2e' }),
    });
    const ds = ((await created.json()) as { unique_id: string }).unique_id;
    const form = new FormData();
    form.append('file', new Blob([fx.CSV]), 'table.csv');
    const uploaded = await fetch(`${base}/datasets/${ds}/files`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const fileId = ((await uploaded.json()) as { mfid: string }).mfid;

    let status = '';
    for (let i = 0; i < 200 && status !== 'complete'; i++) {
      const list = await fetch(`${base}/ingestion_requests?file_id=${fileId}`, { headers: auth });
      status = ((await list.json()) as { items: { status: string }[] }).items[0]?.status ?? '';
      if (status !== 'complete') await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('complete');
    // the API process ran no job: the worker process did
    expect(api.output()).not.toContain('"msg":"ingested"');
    // the worker logs after it commits: the line may arrive a moment after the status
    for (let i = 0; i < 100 && !worker.output().includes('"msg":"ingested"'); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(worker.output()).toContain('"msg":"ingested"');

    // the worker's own listener (METRICS_PORT): health and the ingestion it ran, no API
    const ops = `http://127.0.0.1:${metricsPort}`;
    expect((await fetch(`${ops}/health/ready`)).status).toBe(200);
    expect((await fetch(`${ops}/api/v2/datasets`, { headers: auth })).status).toBe(404);
    const metrics = await (await fetch(`${ops}/metrics`)).text();
    expect(metrics).toMatch(
      /^catalog_ingestions_total\{ingestor="DelimitedTextIngestor",outcome="complete"\} 1$/m,
    );
    expect(metrics).toMatch(/^catalog_jobs_total\{queue="ingestion",outcome="completed"\} 1$/m);

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);

    const cli = await run('cli/ingest.js', [fileId], { ...common, LOG_LEVEL: 'warn' });
    expect(await cli.exited).toBe(0);
    const printed = JSON.parse(cli.output().slice(cli.output().indexOf('{'))) as Record<string, unknown>;
    expect(printed).toMatchObject({
      file_mfid: fileId,
      status: 'complete',
      ingestor_used: 'DelimitedTextIngestor',
    });
    const all = await fetch(`${base}/ingestion_requests?file_id=${fileId}`, { headers: auth });
    expect(((await all.json()) as { total: number }).total).toBe(2);
  } finally {
    if (worker.child.exitCode === null) worker.child.kill('SIGTERM');
    api.child.kill('SIGTERM');
    expect(await api.exited).toBe(0);
  }
}, 480_000);
