import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ServiceProcesses, freePort, type Running } from '../support/process';
import { seedEmbeddedDb } from '../support/embedded-template';

/**
 * A newcomer's first minutes with the compiled service and admin command line: the start names
 * the web page; a command names the database it opened (stderr): the running service's, or a new
 * embedded one it creates. What needs no process of its own (a DATA_DIR without a database
 * refused, a DATABASE_URL shown without its password, the README's create-user and create-key
 * lines) is tested in-process in test/integration/admin-cli.test.ts.
 */
const processes = new ServiceProcesses();
const dirs: string[] = [];
let dataDir: string;
let service: Running;
let port: number;

const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  dataDir = tempDir('catalog-first-');
  seedEmbeddedDb(dataDir);
  port = await freePort();
  service = await processes.run(
    'main.js',
    [],
    { DATA_DIR: dataDir, ADMIN_API_KEY: 'first-minutes-e2e-admin-key-0123456789', PORT: String(port) },
    'Open the web page',
    180_000,
  );
}, 240_000);

afterAll(async () => {
  service.child.kill('SIGTERM');
  await service.exited;
  processes.killAll();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function admin(env: Record<string, string>, ...args: string[]): Promise<Run> {
  const run = await processes.run('cli/admin.js', args, { LOG_LEVEL: 'warn', ...env });
  let stdout = '';
  let stderr = '';
  run.child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  run.child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const closed = new Promise((resolve) => run.child.once('close', resolve));
  const code = await run.exited;
  await closed;
  return { code, stdout, stderr };
}

test('the start names the web page, for people and in the log line', async () => {
  expect(service.output()).toContain(`Open the web page: http://localhost:${port}/\n`);
  // the logger writes asynchronously: its line may come after the banner
  const logLine = () =>
    service
      .output()
      .split('\n')
      .find((l) => l.includes('catalog service listening'));
  for (let i = 0; i < 100 && !logLine(); i++) await new Promise((r) => setTimeout(r, 50));
  const line = logLine();
  expect(JSON.parse(line ?? '{}')).toMatchObject({
    web: `http://localhost:${port}/`,
    graphql: `http://localhost:${port}/graphql`,
  });
});

test("every command names the database it works on: here the running service's", async () => {
  const run = await admin({ DATA_DIR: dataDir }, 'list-users', '--json');
  expect(run.code).toBe(0);
  expect(run.stderr).toContain(
    `database: the embedded database in ${path.join(dataDir, 'db')}, through the service running on it`,
  );
  // stdout stays the command's own output
  expect(JSON.parse(run.stdout)).toEqual(expect.any(Array));
}, 60_000);

test('create-user may start a new embedded database (before a first start), and says so', async () => {
  const fresh = tempDir('catalog-fresh-');
  const run = await admin({ DATA_DIR: fresh }, 'create-user', '--username', 'early', '--json');
  expect(run.code).toBe(0);
  expect(run.stderr).toContain(
    `database: the embedded database in ${path.join(fresh, 'db')} (none there: a new one is created)`,
  );
  expect((JSON.parse(run.stdout) as { api_key: string }).api_key).toMatch(/^cat_/);
  const again = await admin({ DATA_DIR: fresh }, 'list-users', '--json');
  expect(again.code).toBe(0);
  expect(again.stderr).toContain(`database: the embedded database in ${path.join(fresh, 'db')}\n`);
}, 240_000);
