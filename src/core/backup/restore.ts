import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { createHash } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { rawQuery } from '../db/raw';
import { MIGRATIONS } from '../../../migrations';
import type { ObjectStore } from '../storage/object-store';
import { quoteIdent, tablesInOrder, MIGRATIONS_TABLE } from './schema';
import { readManifest, type Manifest, type ObjectEntry } from './manifest';

/** Rows sent per INSERT (one JSON array parameter). */
const BATCH_ROWS = 500;
const BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Restores a backup into an empty database and the configured object store: checks every file
 * against the manifest first, writes the objects (verifying size and SHA-256 as they are
 * stored), builds the schema of the backup's revision, loads every table in one transaction
 * (sequences included), then applies any newer migrations. Nothing is loaded into a database
 * that holds rows, or whose schema is newer than the backup's.
 */
export async function restore(opts: { orm: MikroORM; store: ObjectStore; dir: string }): Promise<Manifest> {
  const { orm, store, dir } = opts;
  const manifest = readManifest(dir);
  const names = MIGRATIONS.map((m) => m.name);
  const upTo = names.indexOf(manifest.schemaRevision);
  if (upTo < 0) {
    throw new Error(
      `the backup's schema ${manifest.schemaRevision} is unknown to this version: restore with the version that made it (or newer)`,
    );
  }
  await verifyFiles(dir, manifest);
  await assertRestorable(orm.em.fork(), names.slice(0, upTo + 1));

  await store.init();
  for await (const entry of objectEntries(dir, manifest)) {
    const stored = await store.put(entry.key, fs.createReadStream(path.join(dir, 'objects', entry.key)));
    if (stored.size !== entry.size || stored.sha256 !== entry.sha256) {
      throw new Error(`object ${entry.key} changed on the way: ${stored.sha256} instead of ${entry.sha256}`);
    }
  }

  await orm.migrator.up({ to: manifest.schemaRevision });
  await orm.em.fork().transactional(async (em) => {
    const live = new Map((await tablesInOrder(em)).map((t) => [t.name, t]));
    for (const table of manifest.tables) {
      const shape = live.get(table.name);
      const absent = shape ? table.columns.filter((c) => !shape.columns.includes(c)) : [];
      if (!shape || absent.length) throw new Error(`table ${table.name} does not match the backup's schema`);
      // the backup holds the trigger-kept tables (dataset_text, dataset_tally) as they were
      await rawQuery(em, `alter table ${quoteIdent(table.name)} disable trigger user`);
      const loaded = await loadTable(em, dir, table.name, table.columns, table.file);
      if (loaded !== table.rows)
        throw new Error(`table ${table.name}: loaded ${loaded} rows, the backup has ${table.rows}`);
    }
    for (const table of manifest.tables) {
      await rawQuery(em, `alter table ${quoteIdent(table.name)} enable trigger user`);
    }
    for (const seq of manifest.sequences) {
      if (seq.value !== null)
        await rawQuery(em, 'select setval(?::regclass, ?::bigint, true)', [quoteIdent(seq.name), seq.value]);
    }
  });
  await orm.migrator.up();
  return manifest;
}

/** Every file is whole and as the manifest describes it, before anything is written. */
async function verifyFiles(dir: string, manifest: Manifest): Promise<void> {
  const check = async (file: string, sha256: string, what: string) => {
    const hash = createHash('sha256');
    for await (const chunk of fs.createReadStream(path.join(dir, file))) hash.update(chunk as Buffer);
    if (hash.digest('hex') !== sha256)
      throw new Error(`${what} (${file}) is damaged: its SHA-256 differs from the manifest`);
  };
  for (const t of manifest.tables) await check(t.file, t.sha256, `table ${t.name}`);
  await check(manifest.objects.file, manifest.objects.sha256, 'the object list');
  let count = 0;
  for await (const entry of objectEntries(dir, manifest)) {
    await check(path.join('objects', entry.key), entry.sha256, `object ${entry.key}`);
    count += 1;
  }
  if (count !== manifest.objects.count)
    throw new Error(`the backup lists ${count} objects, the manifest ${manifest.objects.count}`);
}

async function* objectEntries(dir: string, manifest: Manifest): AsyncGenerator<ObjectEntry> {
  const lines = readline.createInterface({
    input: fs.createReadStream(path.join(dir, manifest.objects.file)),
    crlfDelay: Infinity,
  });
  for await (const line of lines) if (line) yield JSON.parse(line) as ObjectEntry;
}

/** The target holds no rows and no migration past the backup's revision. */
async function assertRestorable(em: EntityManager, allowed: string[]): Promise<void> {
  const [{ present }] = await rawQuery<{ present: boolean }>(
    em,
    'select to_regclass(?) is not null as present',
    [MIGRATIONS_TABLE],
  );
  if (present) {
    const applied = await rawQuery<{ name: string }>(
      em,
      `select name from ${quoteIdent(MIGRATIONS_TABLE)} order by id`,
    );
    const newer = applied.map((a) => a.name).filter((n) => !allowed.includes(n));
    if (newer.length) {
      throw new Error(
        `the target database already has a newer schema (${newer.join(', ')}): restore into a fresh DATA_DIR or an empty database`,
      );
    }
  }
  for (const table of await tablesInOrder(em)) {
    const [{ any }] = await rawQuery<{ any: boolean }>(
      em,
      `select exists (select 1 from ${quoteIdent(table.name)}) as any`,
    );
    if (any)
      throw new Error(
        `the target database is not empty (table ${table.name} has rows): restore into a fresh DATA_DIR or an empty database`,
      );
  }
}

/** Inserts a table's rows in batches; each row's JSON text goes to PostgreSQL unparsed. */
async function loadTable(
  em: EntityManager,
  dir: string,
  table: string,
  columns: string[],
  file: string,
): Promise<number> {
  const cols = columns.map(quoteIdent).join(', ');
  const insert = `insert into ${quoteIdent(table)} (${cols}) overriding system value
    select ${cols} from json_populate_recordset(null::${quoteIdent(table)}, ?::json)`;
  let batch: string[] = [];
  let size = 0;
  let total = 0;
  const flush = async () => {
    if (!batch.length) return;
    await rawQuery(em, insert, [`[${batch.join(',')}]`]);
    total += batch.length;
    batch = [];
    size = 0;
  };
  const lines = readline.createInterface({
    input: fs.createReadStream(path.join(dir, file)),
    crlfDelay: Infinity,
  });
  for await (const line of lines) {
    if (!line) continue;
    batch.push(line);
    size += line.length;
    if (batch.length >= BATCH_ROWS || size >= BATCH_BYTES) await flush();
  }
  await flush();
  return total;
}
