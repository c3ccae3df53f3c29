import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityDictionary, EntityName } from '@mikro-orm/core';
import type { StatementBatch } from './statement-batch';

/**
 * A per-request DataLoader fetching entities by primary key in one `where pk in (...)` query
 * per batch, or, with `batch`, in the statement its batch shares with the request's other
 * loaders (for entities whose columns survive JSON, see StatementBatch). Missing keys resolve
 * to null.
 */
export function entityLoader<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  key: keyof T & string,
  batch?: StatementBatch,
): DataLoader<string, T | null> {
  if (batch) {
    // one statement shared with the request's other loaders (columns must survive JSON)
    const meta = em.getMetadata().get(entity as string);
    const column = meta.properties[key].fieldNames[0];
    const sql = `select t.* from ${meta.tableName} t where t.${column} in (?)`;
    return new DataLoader<string, T | null>(async (ids) => {
      const rows = await batch.query<Record<string, unknown>>(sql, [[...ids]]);
      const byId = new Map(
        rows.map((row) => [String(row[column]), em.map(entity, row as EntityDictionary<T>)]),
      );
      return ids.map((id) => byId.get(id) ?? null);
    });
  }
  return new DataLoader<string, T | null>(async (ids) => {
    const rows = await em.find(entity, { [key]: { $in: [...ids] } } as never);
    const byId = new Map(rows.map((row) => [row[key] as unknown as string, row]));
    return ids.map((id) => byId.get(id) ?? null);
  });
}

/** A per-request DataLoader of lists, grouped by `groupKey` from one query per batch. */
export function groupLoader<K extends string | number, V>(
  fetch: (keys: readonly K[]) => Promise<V[]>,
  groupKey: (row: V) => K,
): DataLoader<K, V[]> {
  return new DataLoader<K, V[]>(async (keys) => {
    const rows = await fetch(keys);
    const groups = new Map<K, V[]>();
    for (const row of rows) {
      const k = groupKey(row);
      const list = groups.get(k);
      if (list) list.push(row);
      else groups.set(k, [row]);
    }
    return keys.map((k) => groups.get(k) ?? []);
  });
}
