import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { ServiceProcesses, freePort, type Running } from '../support/process';
import * as fx from '../support/fixtures';
import { createOrm } from '../../src/core/db/orm';
import { ENTITIES } from '../../src/modules/entities';
import { onServer as testsRunOnServer } from '../support/pg-server';
import { rawQuery } from '../../src/core/db/raw';
import { seedEmbeddedDb } from '../support/embedded-template';

/**
 * Backup and restore with the compiled command line: a service on the embedded database takes
 * records and files; `admin backup` copies them while it runs; `admin restore` loads the copy
 * into a fresh DATA_DIR; a service started there answers the same reads and serves the same
 * bytes, and a second backup of the restored data equals the first, table by table.
 */
const ADMIN_KEY = 'backup-e2e-admin-key-0123456789abcdef';
const processes = new ServiceProcesses();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-backup-e2e-'));
});
afterAll(() => {
  processes.killAll();
  fs.rmSync(root, { recursive: true, force: true });
});

async function startService(dataDir: string): Promise<{ api: string; proc: Running }> {
  const port = await freePort();
  const proc = await processes.run(
    'main.js',
    [],
    { DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN_KEY, PORT: String(port), JOB_POLL_INTERVAL_MS: '100' },
    'catalog service listening',
    180_000,
  );
  return { api: `http://127.0.0.1:${port}`, proc };
}

async function stop(proc: Running): Promise<void> {
  proc.child.kill('SIGTERM');
  expect(await proc.exited).toBe(0);
}

async function admin(dataDir: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const cli = await processes.run('cli/admin.js', args, { DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  return { code: await cli.exited, output: cli.output() };
}

async function call(api: string, method: string, route: string, body?: unknown): Promise<any> {
  const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_KEY}` };
  let payload: string | FormData | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${api}${route}`, { method, headers, body: payload });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Reads whose answers must be the same before and after (signed URLs expire and differ). */
async function snapshot(api: string, ids: { datasets: string[]; sample: string }) {
  const out: Record<string, unknown> = {};
  const routes = [
    '/api/v2/datasets?limit=100',
    '/api/v2/projects',
    '/api/v2/instruments',
    `/api/v2/samples/${ids.sample}`,
    `/api/v2/samples/${ids.sample}/datasets`,
    ...ids.datasets.flatMap((d) => [
      `/api/v2/datasets/${d}`,
      `/api/v2/datasets/${d}/files`,
      `/api/v2/datasets/${d}/keywords`,
      `/api/v2/datasets/${d}/thumbnails`,
      `/api/v2/resources/${d}/metadata`,
      `/api/v2/resources/${d}/links`,
    ]),
  ];
  for (const r of routes)
    out[r] = JSON.parse(
      JSON.stringify(await call(api, 'GET', r), (k, v: unknown) => (/url/i.test(k) ? undefined : v)),
    );
  return out;
}

test('a backup taken while the service runs restores into a fresh DATA_DIR: same records, same bytes', async () => {
  const source = path.join(root, 'source');
  const target = path.join(root, 'target');
  const first = path.join(root, 'backup-1');
  const second = path.join(root, 'backup-2');

  // --- records and files on the source
  // the source starts on a migrated empty database (a first start is process.test.ts's subject);
  // the restore target stays a fresh DATA_DIR, as restoring into one is this test's subject
  seedEmbeddedDb(source);
  const a = await startService(source);
  const files: Record<string, Buffer> = {
    'raw.bin': randomBytes(300_000),
    'image.png': await fx.png(64, 48),
    'table.csv': Buffer.from(fx.CSV),
  };
  let ids: { datasets: string[]; sample: string };
  let before: Record<string, unknown>;
  const fileIds: Record<string, string> = {};
  try {
    await call(a.api, 'POST', '/graphql', {
      query:
        'mutation { createProject(input: {projectId: "backup-demo", title: "Backup demo"}) { uniqueId } }',
    });
    await call(a.api, 'POST', '/api/v2/instruments', { instrument_name: 'Titan B', location: 'Building 72' });
    const d1 = (await call(a.api, 'POST', '/api/v2/datasets', {
      dataset_name: 'scan 1 – ümlaut',
      project_id: 'backup-demo',
      instrument_name: 'Titan B',
      measurement: 'XRD',
    })) as { unique_id: string };
    const d2 = (await call(a.api, 'POST', '/api/v2/datasets', { dataset_name: 'derived', public: true })) as {
      unique_id: string;
    };
    const sample = (await call(a.api, 'POST', '/api/v2/samples', { sample_name: 'crystal 7' })) as {
      unique_id: string;
    };
    ids = { datasets: [d1.unique_id, d2.unique_id], sample: sample.unique_id };
    await call(a.api, 'POST', '/api/v2/resources/links', {
      parent_mfid: d1.unique_id,
      child_mfid: d2.unique_id,
    });
    await call(a.api, 'POST', `/api/v2/datasets/${d1.unique_id}/samples/${sample.unique_id}`);
    await call(a.api, 'POST', `/api/v2/datasets/${d1.unique_id}/keywords?keyword=diffraction`);
    await call(a.api, 'POST', `/api/v2/resources/${d2.unique_id}/metadata`, {
      temperature: { value: 4.2, unit: 'K' },
    });
    for (const [name, data] of Object.entries(files)) {
      const form = new FormData();
      form.append('file', new Blob([data]), name);
      fileIds[name] = (
        (await call(a.api, 'POST', `/api/v2/datasets/${d1.unique_id}/files`, form)) as { mfid: string }
      ).mfid;
    }
    for (let i = 0; i < 300; i++) {
      const list = (await call(
        a.api,
        'GET',
        `/api/v2/ingestion_requests?dataset_id=${d1.unique_id}&limit=100`,
      )) as {
        items: { status: string }[];
      };
      if (list.items.length === 3 && list.items.every((r) => !['requested', 'started'].includes(r.status)))
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    before = await snapshot(a.api, ids);
    expect((before[`/api/v2/datasets/${d1.unique_id}/thumbnails`] as unknown[]).length).toBeGreaterThan(0);

    // --- backup while the service runs (the command line uses the running embedded database)
    const made = await admin(source, ['backup', first, '--json']);
    expect(made.code).toBe(0);
    expect(JSON.parse(made.output.slice(made.output.indexOf('{')))).toMatchObject({
      objects: { count: 3, missing: [] },
    });
    expect(await admin(source, ['backup', first])).toMatchObject({
      code: 1,
      output: expect.stringMatching(/not empty/),
    });
  } finally {
    await stop(a.proc);
  }

  // --- restore into a fresh DATA_DIR, back it up again: every table file equal
  const restored = await admin(target, ['restore', first]);
  expect(restored).toMatchObject({
    code: 0,
    output: expect.stringMatching(/Restored \d+ rows .* and 3 objects/),
  });
  expect(await admin(target, ['restore', first])).toMatchObject({
    code: 1,
    output: expect.stringMatching(/not empty/),
  });
  expect((await admin(target, ['backup', second])).code).toBe(0);
  const m1 = JSON.parse(fs.readFileSync(path.join(first, 'manifest.json'), 'utf8')) as {
    tables: { name: string; rows: number; file: string; sha256: string }[];
  };
  const m2 = JSON.parse(fs.readFileSync(path.join(second, 'manifest.json'), 'utf8')) as typeof m1;
  expect(m2.tables).toEqual(m1.tables);
  for (const t of m1.tables) {
    expect(fs.readFileSync(path.join(second, t.file))).toEqual(fs.readFileSync(path.join(first, t.file)));
  }
  expect(m1.tables.find((t) => t.name === 'dataset')?.rows).toBe(2);
  expect(fs.readFileSync(path.join(second, 'objects.jsonl'), 'utf8')).toBe(
    fs.readFileSync(path.join(first, 'objects.jsonl'), 'utf8'),
  );

  // --- the restored service answers the same and serves the same bytes
  const b = await startService(target);
  try {
    expect(b.proc.output()).not.toContain('A platform administrator');
    expect(await snapshot(b.api, ids)).toEqual(before);
    for (const [name, data] of Object.entries(files)) {
      const res = await fetch(`${b.api}/api/v2/files/${fileIds[name]}/download`, {
        headers: { authorization: `Bearer ${ADMIN_KEY}` },
      });
      expect(res.status).toBe(200);
      expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(sha(data));
    }
  } finally {
    await stop(b.proc);
  }
}, 600_000);

test('restore refuses a damaged backup before writing anything', async () => {
  const dir = path.join(root, 'damaged-backup');
  fs.cpSync(path.join(root, 'backup-1'), dir, { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as {
    tables: { name: string; file: string }[];
  };
  const users = manifest.tables.find((t) => t.name === 'app_user')!;
  fs.appendFileSync(path.join(dir, users.file), '{"unique_id":"0000-0000-0000-0001"}\n');
  const target = path.join(root, 'damaged-target');
  const refused = await admin(target, ['restore', dir]);
  expect(refused).toMatchObject({ code: 1, output: expect.stringMatching(/table app_user .* is damaged/) });
  expect(fs.existsSync(path.join(target, 'objects'))).toBe(false);
}, 300_000);

async function onServer(url: string, statement: string): Promise<void> {
  const orm = await createOrm({ clientUrl: url, entities: ENTITIES, poolMax: 1 });
  try {
    await rawQuery(orm.em.fork(), statement);
  } finally {
    await orm.close(true);
  }
}

const serverPass = testsRunOnServer;

(serverPass ? test : test.skip)(
  `the embedded backup restores into an empty database on a PostgreSQL server${serverPass ? '' : ' (skipped: the suite runs on the embedded database; CI runs it again on a server)'}`,
  async () => {
    const url = process.env.DATABASE_URL!;
    const name = `catalog_restore_${Date.now().toString(36)}`;
    const parsed = new URL(url);
    parsed.pathname = `/${name}`;
    const target = parsed.toString();
    await onServer(url, `create database ${name}`);
    try {
      const dataDir = path.join(root, 'server-target');
      const run = async (args: string[]) => {
        const cli = await processes.run('cli/admin.js', args, {
          DATA_DIR: dataDir,
          DATABASE_URL: target,
          LOG_LEVEL: 'warn',
        });
        return { code: await cli.exited, output: cli.output() };
      };
      expect((await run(['restore', path.join(root, 'backup-1')])).code).toBe(0);
      const again = path.join(root, 'backup-server');
      expect((await run(['backup', again])).code).toBe(0);
      const m1 = JSON.parse(fs.readFileSync(path.join(root, 'backup-1', 'manifest.json'), 'utf8')) as {
        tables: { file: string; sha256: string }[];
      };
      for (const t of m1.tables) {
        expect(fs.readFileSync(path.join(again, t.file), 'utf8')).toBe(
          fs.readFileSync(path.join(root, 'backup-1', t.file), 'utf8'),
        );
      }
    } finally {
      await onServer(url, `drop database if exists ${name} with (force)`);
    }
  },
  300_000,
);
