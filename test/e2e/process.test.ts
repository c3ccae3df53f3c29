import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * The real process, as `npm start` runs it (the compiled service, built by `pretest`): embedded
 * database on first start, bootstrap key printed once, graceful stop, data kept across restarts.
 */
const MAIN = path.resolve(__dirname, '../../dist/src/main.js');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

async function start(env: Record<string, string>): Promise<Running> {
  const childEnv: Record<string, string> = { ...(process.env as Record<string, string>), ...env };
  delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, [MAIN], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  while (!out.includes('catalog service listening')) {
    if (child.exitCode !== null) throw new Error(`service exited early:\n${out}`);
    if (Date.now() > deadline) throw new Error(`service did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => out, exited };
}

let dataDir: string;
const children: ChildProcess[] = [];
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-e2e-'));
});
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
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
}, 120_000);

test('invalid configuration fails at start, listing every problem', () => {
  const env: NodeJS.ProcessEnv = { ...process.env, ROLE: 'nope', PORT: 'x', MAX_PAGE_SIZE: '-1' };
  delete env.DATABASE_URL;
  const res = spawnSync(process.execPath, [MAIN], { env, encoding: 'utf8', timeout: 30_000 });
  expect(res.status).toBe(2);
  for (const name of ['ROLE', 'PORT', 'MAX_PAGE_SIZE']) expect(res.stderr).toContain(name);
});
