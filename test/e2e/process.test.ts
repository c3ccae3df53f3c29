import { spawnSync } from 'node:child_process';
import { DIST, ServiceProcesses, freePort } from '../support/process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The real process, as `npm start` runs it (the compiled service, built by `pretest`): embedded
 * database on first start, bootstrap key printed once, graceful stop, data kept across restarts.
 */
const MAIN = path.join(DIST, 'main.js');
const processes = new ServiceProcesses();
const start = (env: Record<string, string>) => processes.run('main.js', [], env, 'catalog service listening');

let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-e2e-'));
});
afterAll(() => {
  processes.killAll();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('starts with no configuration, prints the admin key once, stops cleanly and keeps its data', async () => {
  const port = await freePort();
  const env = { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' };
  const base = `http://127.0.0.1:${port}`;

  const first = await start(env);
  const key = /(cat_[A-Za-z0-9_-]{43})/.exec(first.output())?.[1];
  expect(key).toBeDefined();
  const ready = await fetch(`${base}/health/ready`);
  expect(ready.status).toBe(200);
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const created = await fetch(`${base}/api/v2/datasets`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ dataset_name: 'survives restarts' }),
  });
  expect(created.status).toBe(201);
  const { unique_id: id } = (await created.json()) as { unique_id: string };
  expect(created.headers.get('x-request-id')).toBeTruthy();
  // every log line of a request carries its request id (the access line is written on finish)
  const requestLines = () =>
    first
      .output()
      .split('\n')
      .filter((l) => l.includes('"path":"/api/v2/datasets"'));
  for (let i = 0; i < 50 && requestLines().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  expect(requestLines().length).toBeGreaterThan(0);
  expect(requestLines().every((l) => /"requestId":"[0-9a-f-]{36}"/.test(l))).toBe(true);

  first.child.kill('SIGTERM');
  expect(await first.exited).toBe(0);
  expect(first.output()).toContain('"msg":"stopped"');
  expect(fs.existsSync(path.join(dataDir, 'embedded-db.json'))).toBe(false);

  const second = await start(env);
  try {
    expect(second.output()).not.toMatch(/cat_[A-Za-z0-9_-]{43}/);
    const read = await fetch(`${base}/api/v2/datasets/${id}`, { headers: auth });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { dataset_name: string }).dataset_name).toBe('survives restarts');
  } finally {
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  }
}, 300_000);

test('invalid configuration fails at start, listing every problem', () => {
  const env: NodeJS.ProcessEnv = { ...process.env, ROLE: 'nope', PORT: 'x', MAX_PAGE_SIZE: '-1' };
  delete env.DATABASE_URL;
  const res = spawnSync(process.execPath, [MAIN], { env, encoding: 'utf8', timeout: 30_000 });
  expect(res.status).toBe(2);
  for (const name of ['ROLE', 'PORT', 'MAX_PAGE_SIZE']) expect(res.stderr).toContain(name);
});
