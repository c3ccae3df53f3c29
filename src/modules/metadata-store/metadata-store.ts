import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import type { ResourceType } from '../permission/permission';
import { mergeTopLevel, type MetadataDocument } from './metadata-document';
import { indexedStrings, indexedValues } from './metadata-quantities';

/** How a write treats existing metadata. */
export type WriteMode = 'merge' | 'replace';

/**
 * The scientific metadata rows, written inside a caller's transaction without permission checks:
 * the initial metadata of a record being created, ingestion's merges. It depends on nothing but
 * the database, so the record services use it without depending on the resource lookup.
 */
export class MetadataStore {
  /**
   * Writes a document: `merge` merges its top-level keys into what exists (creating it if
   * absent); `replace` replaces it all. Writes lock the row, so concurrent merges never lose keys.
   */
  async writeIn(
    tx: EntityManager,
    type: ResourceType,
    id: string,
    mode: WriteMode,
    doc: MetadataDocument,
    actorId: string | null = null,
  ): Promise<MetadataDocument> {
    return (await this.changeIn(tx, type, id, mode, doc, actorId)).data;
  }

  /**
   * `writeIn`, also answering which top-level keys changed (added, changed or, on replace,
   * removed): what a `metadata.changed` event reports, and the version it wrote (null when
   * nothing changed: no version).
   */
  async changeIn(
    tx: EntityManager,
    type: ResourceType,
    id: string,
    mode: WriteMode,
    doc: MetadataDocument,
    actorId: string | null = null,
  ): Promise<{ data: MetadataDocument; changedKeys: string[]; version: number | null }> {
    // create-if-absent, then lock: concurrent writes queue up instead of losing keys
    await rawQuery(
      tx,
      `insert into scientific_metadata (resource_id, resource_type, data) values (?, ?, '{}'::jsonb)
       on conflict (resource_id) do nothing`,
      [id, type],
    );
    const rows = await rawQuery<{ data: MetadataDocument; modification_time: Date }>(
      tx,
      'select data, modification_time from scientific_metadata where resource_id = ? for update',
      [id],
    );
    const previous = rows[0]?.data ?? {};
    const next = mode === 'merge' ? mergeTopLevel(previous, doc) : doc;
    const saved = await rawQuery<{ data: MetadataDocument }>(
      tx,
      `insert into scientific_metadata (resource_id, resource_type, data) values (?, ?, ?::jsonb)
       on conflict (resource_id) do update set data = excluded.data, modification_time = now()
       returning data`,
      [id, type, JSON.stringify(next)],
    );
    const data = saved[0].data;
    await writeIndexedValues(tx, id, data);
    const changedKeys = [...new Set([...Object.keys(previous), ...Object.keys(data)])].filter(
      (key) => JSON.stringify(previous[key]) !== JSON.stringify(data[key]),
    );
    const version = changedKeys.length
      ? await this.addVersionIn(
          tx,
          id,
          { data: previous, time: rows[0]?.modification_time ?? new Date() },
          data,
          actorId,
        )
      : null;
    return { data, changedKeys, version };
  }

  /**
   * Records `data` as the resource's next metadata version, under the document's row lock (so
   * numbers never collide). A document older than versioning (no version yet, not empty) is
   * kept first as version 1, from the service, at its last modification time.
   */
  private async addVersionIn(
    tx: EntityManager,
    id: string,
    previous: { data: MetadataDocument; time: Date },
    data: MetadataDocument,
    actorId: string | null,
  ): Promise<number> {
    const [{ n }] = await rawQuery<{ n: number }>(
      tx,
      'select coalesce(max(version), 0)::int as n from metadata_version where resource_id = ?',
      [id],
    );
    let next = n + 1;
    if (n === 0 && Object.keys(previous.data).length) {
      await rawQuery(
        tx,
        `insert into metadata_version (resource_id, version, data, actor_id, time) values (?, 1, ?::jsonb, null, ?)`,
        [id, JSON.stringify(previous.data), previous.time],
      );
      next = 2;
    }
    await rawQuery(
      tx,
      `insert into metadata_version (resource_id, version, data, actor_id) values (?, ?, ?::jsonb, ?)`,
      [id, next, JSON.stringify(data), actorId],
    );
    return next;
  }

  /**
   * Merges the same top-level keys into the metadata of many records of one type inside `tx`,
   * set-based, without permission checks (batch edits: the caller holds the records' row locks):
   * the documents, and their side-index rows under the keys whose value each record changes
   * (`targets[].keys`; the rows of a key whose value stays are left as they are).
   */
  async mergeManyIn(
    tx: EntityManager,
    type: ResourceType,
    targets: readonly { id: string; keys: readonly string[] }[],
    doc: MetadataDocument,
  ): Promise<void> {
    if (!targets.length) return;
    await rawQuery(
      tx,
      `insert into scientific_metadata (resource_id, resource_type, data)
       select id, ?, ?::jsonb from jsonb_array_elements_text(?::jsonb) as id
       on conflict (resource_id) do update set data = scientific_metadata.data || excluded.data,
         modification_time = now()`,
      [type, JSON.stringify(doc), JSON.stringify(targets.map((t) => t.id))],
    );
    await replaceKeyRows(
      tx,
      groupBy(targets, (t) => ({ keys: t.keys, doc })),
    );
  }

  /**
   * Puts back the top-level `keys` of many documents inside `tx` (batch undo): each record's
   * `before` holds the keys it had (a key absent from it is removed), set-based; the side-index
   * rows only under each record's `changed` keys (those the batch changed: the others' values,
   * and so their rows, are what they were).
   */
  async restoreKeysManyIn(
    tx: EntityManager,
    keys: readonly string[],
    items: readonly { id: string; before: MetadataDocument; changed: readonly string[] }[],
  ): Promise<void> {
    if (!items.length || !keys.length) return;
    await rawQuery(
      tx,
      `update scientific_metadata sm set data = (sm.data - array(select jsonb_array_elements_text(?::jsonb))) || v.before,
         modification_time = now()
       from jsonb_to_recordset(?::jsonb) as v(id text, before jsonb) where sm.resource_id = v.id`,
      [JSON.stringify(keys), JSON.stringify(items.map((i) => ({ id: i.id, before: i.before })))],
    );
    // records whose changed keys and `before` documents are alike share their index rows
    await replaceKeyRows(
      tx,
      groupBy(items, (i) => ({ keys: i.changed, doc: i.before })),
    );
  }

  /**
   * The top-level `keys` each of many documents has, with their values (a record without them:
   * absent from the map), read through `em` in one statement (a batch edit's targets).
   */
  async keysManyIn(
    em: EntityManager,
    ids: readonly string[],
    keys: readonly string[],
  ): Promise<Map<string, MetadataDocument>> {
    const rows = await rawQuery<{ id: string; doc: MetadataDocument }>(
      em,
      `select sm.resource_id as id, d.doc from scientific_metadata sm
       cross join lateral (select jsonb_object_agg(k, sm.data -> k) as doc
         from jsonb_array_elements_text(?::jsonb) k where jsonb_exists(sm.data, k)) d
       where sm.resource_id in (select jsonb_array_elements_text(?::jsonb)) and d.doc is not null`,
      [JSON.stringify(keys), JSON.stringify(ids)],
    );
    return new Map(rows.map((r) => [r.id, r.doc]));
  }

  /** Stores the initial metadata of a record being created in `tx`. */
  async initialize(
    tx: EntityManager,
    type: ResourceType,
    id: string,
    doc: MetadataDocument,
    actorId: string | null = null,
  ): Promise<void> {
    await this.writeIn(tx, type, id, 'replace', doc, actorId);
  }
}

/**
 * Replaces the side indexes of one document inside `tx`: `metadata_value` (numbers, and
 * quantities in SI) and `metadata_string` (strings). The document is not changed.
 */
export async function writeIndexedValues(tx: EntityManager, id: string, doc: unknown): Promise<void> {
  await replaceRows(
    tx,
    'metadata_value (resource_id, path, dim, num)',
    id,
    indexedValues(doc).map((v) => [v.path, v.dim, v.num]),
  );
  await replaceRows(
    tx,
    'metadata_string (resource_id, path, str)',
    id,
    indexedStrings(doc).map((v) => [v.path, v.str]),
  );
}

/**
 * Replaces the side-index rows under top-level keys of many records: each group's records get
 * the rows of its document under its `keys` (paths are keys joined by `.`), and keep the rows
 * under other keys. One delete per table for each distinct set of keys and one insert per table,
 * whatever the number of groups (a batch undo has one group per distinct earlier document: one
 * insert per group was a third of its time).
 */
async function replaceKeyRows(
  tx: EntityManager,
  groups: readonly { ids: readonly string[]; keys: readonly string[]; doc: MetadataDocument }[],
): Promise<void> {
  // one delete a table for each set of keys (a batch has one or a few)
  const byKeys = new Map<string, { keys: readonly string[]; ids: string[] }>();
  for (const group of groups) {
    if (!group.keys.length) continue;
    const sig = JSON.stringify(group.keys);
    const one = byKeys.get(sig) ?? { keys: group.keys, ids: [] };
    one.ids.push(...group.ids);
    byKeys.set(sig, one);
  }
  const under = `resource_id in (select jsonb_array_elements_text(?::jsonb))
    and exists (select 1 from jsonb_array_elements_text(?::jsonb) k where path = k or left(path, length(k) + 1) = k || '.')`;
  for (const { keys, ids } of byKeys.values()) {
    for (const table of ['metadata_value', 'metadata_string']) {
      await rawQuery(tx, `delete from ${table} where ${under}`, [JSON.stringify(ids), JSON.stringify(keys)]);
    }
  }
  const values: { ids: readonly string[]; rows: { path: string; dim: string; num: number }[] }[] = [];
  const strings: { ids: readonly string[]; rows: { path: string; str: string }[] }[] = [];
  for (const group of groups) {
    const part: MetadataDocument = {};
    for (const key of group.keys) if (key in group.doc) part[key] = group.doc[key];
    const v = indexedValues(part).map((r) => ({ path: r.path, dim: r.dim, num: r.num }));
    const s = indexedStrings(part).map((r) => ({ path: r.path, str: r.str }));
    if (v.length) values.push({ ids: group.ids, rows: v });
    if (s.length) strings.push({ ids: group.ids, rows: s });
  }
  // each group's records cross its rows, all groups in one statement
  const groupsOf = `jsonb_to_recordset(?::jsonb) as g(ids jsonb, rows jsonb)
    cross join jsonb_array_elements_text(g.ids) as id`;
  if (values.length) {
    await rawQuery(
      tx,
      `insert into metadata_value (resource_id, path, dim, num)
       select id, v.path, v.dim, v.num from ${groupsOf}
       cross join jsonb_to_recordset(g.rows) as v(path text, dim text, num double precision)`,
      [JSON.stringify(values)],
    );
  }
  if (strings.length) {
    await rawQuery(
      tx,
      `insert into metadata_string (resource_id, path, str)
       select id, v.path, v.str from ${groupsOf}
       cross join jsonb_to_recordset(g.rows) as v(path text, str text)`,
      [JSON.stringify(strings)],
    );
  }
}

/**
 * `items` grouped by what `of` says about each (its keys and document, compared as JSON), with
 * their ids.
 */
function groupBy<T extends { id: string }>(
  items: readonly T[],
  of: (item: T) => { keys: readonly string[]; doc: MetadataDocument },
): { ids: string[]; keys: readonly string[]; doc: MetadataDocument }[] {
  const groups = new Map<string, { ids: string[]; keys: readonly string[]; doc: MetadataDocument }>();
  for (const item of items) {
    const { keys, doc } = of(item);
    const sig = JSON.stringify([keys, doc]);
    const group = groups.get(sig) ?? { ids: [], keys, doc };
    group.ids.push(item.id);
    groups.set(sig, group);
  }
  return [...groups.values()];
}

/** Replaces the rows of one document in a side index (`table (resource_id, …columns)`), 1 000 a statement. */
async function replaceRows(tx: EntityManager, table: string, id: string, rows: unknown[][]): Promise<void> {
  await rawQuery(tx, `delete from ${table.split(' ')[0]} where resource_id = ?`, [id]);
  for (let start = 0; start < rows.length; start += 1000) {
    const chunk = rows.slice(start, start + 1000);
    await rawQuery(
      tx,
      `insert into ${table} values ${chunk.map((r) => `(?${', ?'.repeat(r.length)})`).join(', ')}`,
      chunk.flatMap((r) => [id, ...r]),
    );
  }
}
