import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ServiceProcesses, freePort, type Running } from '../support/process';
import { seedEmbeddedDb } from '../support/embedded-template';

/**
 * A newcomer's first minutes with the compiled service and admin command line: the start names
 * the web page; every command names the database it opened (stderr), a DATA_DIR without one is
 * refused instead of silently getting an empty database, a DATABASE_URL is shown without its
 * password; the README's create-user and create-key lines leave each user one key.
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

test('a DATA_DIR without a database is refused by every command that needs one, and nothing is created', async () => {
  const empty = tempDir('catalog-empty-');
  for (const args of [
    ['list-users'],
    ['list-keys'],
    ['backup', path.join(empty, 'backup')],
    ['create-key', 'admin'],
    ['revoke-keys', 'alice'],
    ['add-member', '--project', 'demo', '--user', 'alice'],
  ]) {
    const run = await admin({ DATA_DIR: empty }, ...args);
    expect({ args, code: run.code }).toEqual({ args, code: 1 });
    expect(run.stderr).toContain(`there is no database in ${path.join(empty, 'db')}`);
    expect(run.stderr).toMatch(/Set DATA_DIR to the data directory of the service/);
  }
  expect(fs.readdirSync(empty)).toEqual([]);
}, 120_000);

test('DATABASE_URL is named with its password hidden', async () => {
  const url = `postgresql://catalog:s3cret-pw@127.0.0.1:${await freePort()}/catalog`;
  const run = await admin({ DATABASE_URL: url, DATA_DIR: dataDir }, 'list-users');
  expect(run.stderr).toContain(`database: postgresql://catalog:***@127.0.0.1:`);
  expect(run.stderr + run.stdout).not.toContain('s3cret-pw');
  expect(run.code).toBe(1);
}, 60_000);

test("the README's create-user and create-key lines leave each new user exactly one key", async () => {
  const readme = fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
  const lines = readme
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^\$ADMIN (create-user|create-key) /.test(l))
    .map((l) => l.replace(/#.*$/, '').trim().split(/\s+/).slice(1));
  const created = lines.filter((a) => a[0] === 'create-user').map((a) => a[a.indexOf('--username') + 1]);
  expect(created.length).toBeGreaterThanOrEqual(2);
  for (const args of lines.filter((a) => a[0] === 'create-user' || created.includes(a[1]))) {
    const run = await admin({ DATA_DIR: dataDir }, ...args);
    expect({ args, code: run.code, stderr: run.stderr }).toMatchObject({ args, code: 0 });
    // what the README says: create-user prints the key unless --no-key
    if (args[0] === 'create-user')
      expect(run.stdout.includes('API key (shown once)')).toBe(!args.includes('--no-key'));
  }
  for (const user of created) {
    const keys = JSON.parse(
      (await admin({ DATA_DIR: dataDir }, 'list-keys', user, '--json')).stdout,
    ) as unknown[];
    expect({ user, keys: keys.length }).toEqual({ user, keys: 1 });
  }
}, 180_000);

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
