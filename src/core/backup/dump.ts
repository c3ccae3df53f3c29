import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { rawQuery } from '../db/raw';
import { schemaRevision } from '../db/orm';
import type { ObjectStore } from '../storage/object-store';
import { HashingMeter } from '../storage/hashing';
import { quoteIdent, sequenceStates, tablesInOrder, type TableShape } from './schema';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  writeManifest,
  type Manifest,
  type ObjectEntry,
  type TableEntry,
} from './manifest';

const FETCH_ROWS = 2000;

/**
 * A consistent backup of the database and the objects it references, into `dir` (empty or
 * absent). Every table is read in one REPEATABLE READ, read-only transaction (one snapshot, so
 * the rows agree with each other whatever is written meanwhile); the object keys come from the
 * same snapshot (`objectKeysSql`), and the objects are copied after it. An object deleted in
 * between is listed as missing in the manifest.
 */
export async function backup(opts: {
  orm: MikroORM;
  store: ObjectStore;
  dir: string;
  /** one column of object keys, e.g. `select storage_key from ... where storage_key is not null` */
  objectKeysSql: string;
}): Promise<Manifest> {
  const { orm, store, dir } = opts;
  prepareEmptyDir(dir);
  fs.mkdirSync(path.join(dir, 'db'));
  const revision = await schemaRevision(orm);
  if (!revision) throw new Error('the database has no schema yet: nothing to back up');

  const snapshot = await orm.em.fork().transactional(
    async (em) => {
      const tables: TableEntry[] = [];
      for (const shape of await tablesInOrder(em)) tables.push(await dumpTable(em, shape, dir));
      const keys = await rawQuery<Record<string, string>>(em, opts.objectKeysSql);
      const [{ version }] = await rawQuery<{ version: string }>(em, 'select version()');
      return {
        tables,
        keys: keys.map((k) => Object.values(k)[0]),
        version,
        sequences: await sequenceStates(em),
      };
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );

  const objects = await copyObjects(store, snapshot.keys, dir);
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: new Date().toISOString(),
    schemaRevision: revision,
    server: snapshot.version,
    tables: snapshot.tables,
    sequences: snapshot.sequences,
    objects,
  };
  writeManifest(dir, manifest);
  return manifest;
}

function prepareEmptyDir(dir: string): void {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
    throw new Error(`${dir} is not empty: back up into a new directory`);
  }
  fs.mkdirSync(dir, { recursive: true });
}

/** Streams a table's rows through a cursor into `db/<table>.jsonl`. */
async function dumpTable(em: EntityManager, shape: TableShape, dir: string): Promise<TableEntry> {
  const file = `db/${shape.name}.jsonl`;
  const out = fs.createWriteStream(path.join(dir, file));
  const hash = createHash('sha256');
  const cols = shape.columns.map(quoteIdent).join(', ');
  const order = shape.primaryKey.length ? ` order by ${shape.primaryKey.map(quoteIdent).join(', ')}` : '';
  await rawQuery(
    em,
    `declare backup_rows no scroll cursor for
     select row_to_json(r)::text as j from (select ${cols} from ${quoteIdent(shape.name)}${order}) r`,
  );
  let rows = 0;
  for (;;) {
    const batch = await rawQuery<{ j: string }>(em, `fetch ${FETCH_ROWS} from backup_rows`);
    if (!batch.length) break;
    const text = batch.map((r) => `${r.j}\n`).join('');
    hash.update(text);
    rows += batch.length;
    if (!out.write(text)) await once(out, 'drain');
  }
  await rawQuery(em, 'close backup_rows');
  out.end();
  await once(out, 'close');
  return { name: shape.name, columns: shape.columns, rows, file, sha256: hash.digest('hex') };
}

async function copyObjects(store: ObjectStore, keys: string[], dir: string): Promise<Manifest['objects']> {
  const listFile = 'objects.jsonl';
  const list = fs.createWriteStream(path.join(dir, listFile));
  const listHash = createHash('sha256');
  const missing: string[] = [];
  let bytes = 0;
  let count = 0;
  for (const key of [...new Set(keys)].sort()) {
    const object = await store.get(key);
    if (!object) {
      missing.push(key);
      continue;
    }
    const target = path.join(dir, 'objects', key);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const meter = new HashingMeter();
    await pipeline(object.body, meter, fs.createWriteStream(target));
    const entry: ObjectEntry = { key, size: meter.bytes, sha256: meter.sha256() };
    const line = `${JSON.stringify(entry)}\n`;
    listHash.update(line);
    list.write(line);
    bytes += entry.size;
    count += 1;
  }
  list.end();
  await once(list, 'close');
  return { count, bytes, file: listFile, sha256: listHash.digest('hex'), missing };
}
