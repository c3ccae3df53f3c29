import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityName, FilterQuery, QueryOrderMap } from '@mikro-orm/core';
import { keysetPage, type KeysetPage } from '../pagination';
import type { OffsetPage } from './page';

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

/**
 * An offset page of an ORM-filtered collection in `orderBy` order, with its total; `populate`
 * names relations to load with the page.
 */
export async function offsetFind<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  where: FilterQuery<T>,
  // eslint-disable-next-line @typescript-eslint/no-generated-empty-object-type -- MikroORM's order map of a generic entity
  orderBy: QueryOrderMap<T>,
  page: { limit: number; offset: number },
  populate?: readonly string[],
): Promise<OffsetPage<T>> {
  const [items, total] = await em.findAndCount(entity, where, {
    populate: populate as never,
    orderBy: orderBy as never,
    limit: page.limit,
    offset: page.offset,
  });
  return { items, total };
}
