import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityName } from '@mikro-orm/core';

/**
 * A per-request DataLoader fetching entities by primary key in one `where pk in (...)` query
 * per batch. Missing keys resolve to null.
 */
export function entityLoader<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  key: keyof T & string,
): DataLoader<string, T | null> {
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
