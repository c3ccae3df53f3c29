import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestApp, type TestApp } from '../support/app';
import { freePort } from '../support/process';
import { runAdmin } from '../../src/cli/admin-run';

/**
 * The admin command line (docs/operations.md, "The admin command line"), its commands run
 * in-process by `runAdmin` on the test service's database while the service runs: keys listed,
 * revoked one by one, users disabled, enabled and deleted, with the effect checked over HTTP. The
 * compiled command (`node dist/src/cli/admin.js`) and its way to the database of a service running
 * on the embedded one are first-minutes.test.ts's and backup.test.ts's subject. The refusals of a
 * DATA_DIR without a database, the hidden DATABASE_URL password and the README's create-user and
 * create-key lines moved here from first-minutes.test.ts (docs/development.md, "Moves between tiers").
 */
let t: TestApp;
let api: string;
// names of this file's own: the worker's database holds other files' users
const tag = Math.random().toString(36).slice(2, 8);
const name = (n: string) => `${n}-${tag}`;
let adminKey: string;

beforeAll(async () => {
  // the commands write through a connection of their own, as from another process on a
  // PostgreSQL server: without the authentication cache, each effect shows on the next request
  t = await startTestApp({ AUTH_CACHE_TTL_MS: '0' });
  api = `${t.url}/api/v2`;
  adminKey = (await json('create-user', '--username', name('admin'), '--admin')).api_key as string;
});
const dirs: string[] = [];
afterAll(async () => {
  await t.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** `out`: stdout and stderr as they came; `stdout`: the command's output alone (stderr names the database). */
async function cli(...args: string[]): Promise<{ code: number | null; out: string; stdout: string }> {
  let out = '';
  let stdout = '';
  const code = await runAdmin(args, {
    env: { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: t.dataDir, LOG_LEVEL: 'warn' },
    out: (text) => {
      out += text;
      stdout += text;
    },
    err: (text) => {
      out += text;
    },
  });
  return { code, out, stdout };
}

async function json<T = any>(...args: string[]): Promise<T> {
  const { code, out, stdout } = await cli(...args, '--json');
  if (code !== 0) throw new Error(`admin ${args.join(' ')} exited ${code}: ${out}`);
  return JSON.parse(stdout) as T;
}

const status = async (key: string, route = '/account') =>
  (await fetch(`${api}${route}`, { headers: { authorization: `Bearer ${key}` } })).status;

test('keys: listed with prefixes and status, revoked one at a time', async () => {
  const created = await json(
    'create-user',
    '--username',
    name('alice'),
    '--email',
    `${name('alice')}@example.org`,
  );
  const first = created.api_key as string;
  const second = (await json('create-key', name('alice'), '--label', 'laptop')).api_key as string;
  const keys = await json<{ prefix: string; status: string; label: string | null; username: string }[]>(
    'list-keys',
    name('alice'),
  );
  expect(keys.map((k) => k.prefix).sort()).toEqual([first.slice(0, 10), second.slice(0, 10)].sort());
  expect(keys.every((k) => k.status === 'active' && k.username === name('alice'))).toBe(true);
  expect(keys.find((k) => k.prefix === second.slice(0, 10))?.label).toBe('laptop');
  expect(JSON.stringify(keys)).not.toContain(first);

  expect(await status(first)).toBe(200);
  const revoked = await json('revoke-key', first.slice(0, 10));
  expect(revoked.prefix).toBe(first.slice(0, 10));
  expect(await status(first)).toBe(401);
  expect(await status(second)).toBe(200);
  expect((await json<{ status: string }[]>('list-keys', name('alice'))).map((k) => k.status).sort()).toEqual([
    'active',
    'revoked',
  ]);
  // an ambiguous or malformed prefix revokes nothing
  expect(await cli('revoke-key', 'cat_')).toMatchObject({ code: 1, out: expect.stringMatching(/prefix/) });
  expect(await cli('revoke-key', first.slice(0, 10))).toMatchObject({
    code: 1,
    out: expect.stringMatching(/already revoked/),
  });
  expect(await status(second)).toBe(200);
  const table = await cli('list-keys');
  expect(table.stdout.split('\n')[0]).toMatch(/^prefix\s+key_id\s+user\s+username\s+label\s+status/);
}, 300_000);

test('disable-user stops every key of the user; enable-user restores them', async () => {
  const bob = await json('create-user', '--username', name('bob'));
  expect(await status(bob.api_key as string)).toBe(200);
  expect(await json('disable-user', name('bob'))).toEqual({ user: bob.user.unique_id, disabled: true });
  expect(await status(bob.api_key as string)).toBe(401);
  const users = await json<{ username: string; disabled: boolean }[]>('list-users');
  expect(users.find((u) => u.username === name('bob'))?.disabled).toBe(true);
  await json('enable-user', name('bob'));
  expect(await status(bob.api_key as string)).toBe(200);
}, 300_000);

test('sign-out ends the browser sessions of a user; activate-user activates a pending account', async () => {
  const erin = await json('create-user', '--username', name('erin'));
  const base = t.url;
  const signIn = () =>
    fetch(`${base}/auth/key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: erin.api_key }),
    });
  const started = await signIn();
  const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0];
  const account = async () => (await fetch(`${api}/account`, { headers: { cookie } })).status;
  expect(await account()).toBe(200);
  expect(await json('sign-out', name('erin'))).toEqual({ user: erin.user.unique_id, ended: 1 });
  expect(await account()).toBe(401);
  expect(await status(erin.api_key as string)).toBe(200);
  expect(await json('activate-user', name('erin'))).toEqual({ user: erin.user.unique_id, active: true });
}, 300_000);

test('delete-user refuses while the user owns records; --transfer-to hands them over', async () => {
  const carol = await json('create-user', '--username', name('carol'));
  const key = carol.api_key as string;
  const made = await fetch(`${api}/datasets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ dataset_name: 'carol owns this' }),
  });
  const dataset = ((await made.json()) as { unique_id: string }).unique_id;
  expect(await cli('delete-user', name('carol'))).toMatchObject({
    code: 1,
    out: expect.stringMatching(/still owns records \(1 dataset\)/),
  });
  expect(await status(key)).toBe(200);

  const deleted = await json('delete-user', name('carol'), '--transfer-to', name('admin'));
  expect(deleted).toMatchObject({
    deleted: carol.user.unique_id,
    transferred: [{ table: 'dataset', count: 1 }],
  });
  expect(await status(key)).toBe(401);
  const read = await fetch(`${api}/datasets/${dataset}`, {
    headers: { authorization: `Bearer ${adminKey}` },
  });
  const body = (await read.json()) as { owner?: { username?: string } };
  expect(read.status).toBe(200);
  expect(body.owner?.username).toBe(name('admin'));
  expect(await cli('delete-user', name('carol'))).toMatchObject({
    code: 1,
    out: expect.stringMatching(/no user matches carol/),
  });
}, 300_000);

test('help, and an unknown command exits 2', async () => {
  expect(await cli('help')).toMatchObject({ code: 0, out: expect.stringMatching(/revoke-key\s+<prefix>/) });
  expect((await cli('frobnicate')).code).toBe(2);
}, 60_000);

/** A command with `env` alone (no test service's database unless it names one), stdout and stderr apart. */
async function runWith(
  env: Record<string, string | undefined>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, {
    env: { LOG_LEVEL: 'warn', ...env },
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

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
    const run = await runWith({ DATA_DIR: empty }, ...args);
    expect({ args, code: run.code }).toEqual({ args, code: 1 });
    expect(run.stderr).toContain(`there is no database in ${path.join(empty, 'db')}`);
    expect(run.stderr).toMatch(/Set DATA_DIR to the data directory of the service/);
  }
  expect(fs.readdirSync(empty)).toEqual([]);
}, 120_000);

test('DATABASE_URL is named with its password hidden', async () => {
  const url = `postgresql://catalog:s3cret-pw@127.0.0.1:${await freePort()}/catalog`;
  const run = await runWith({ DATABASE_URL: url, DATA_DIR: t.dataDir }, 'list-users');
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
  // the README's own names: no other test file makes these users
  const env = { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: t.dataDir };
  for (const args of lines.filter((a) => a[0] === 'create-user' || created.includes(a[1]))) {
    const run = await runWith(env, ...args);
    expect({ args, code: run.code, stderr: run.stderr }).toMatchObject({ args, code: 0 });
    // what the README says: create-user prints the key unless --no-key
    if (args[0] === 'create-user')
      expect(run.stdout.includes('API key (shown once)')).toBe(!args.includes('--no-key'));
  }
  for (const user of created) {
    const keys = JSON.parse((await runWith(env, 'list-keys', user, '--json')).stdout) as unknown[];
    expect({ user, keys: keys.length }).toEqual({ user, keys: 1 });
  }
}, 180_000);
