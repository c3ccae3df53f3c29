import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityName, FilterQuery } from '@mikro-orm/core';
import { keysetPage, type KeysetPage } from '../pagination';

/** A newest-first keyset page of a table keyed by MFID, for small ORM-filtered collections. */
export async function keysetFind<T extends { uniqueId: string }>(
  em: EntityManager,
  entity: EntityName<T>,
  where: FilterQuery<T>,
  page: { limit: number; cursor?: string },
): Promise<KeysetPage<T>> {
  const filter = page.cursor
    ? ({ $and: [where, { uniqueId: { $lt: page.cursor } }] } as FilterQuery<T>)
    : where;
  const rows = await em.find(entity, filter, {
    orderBy: { uniqueId: 'desc' } as never,
    limit: page.limit + 1,
  });
  return keysetPage(rows, page.limit);
}
