import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DeletionRequest } from './deletion-request.entity';

/** The pending deletion request of many resources in one query (null where there is none). */
export function deletionLoader(em: EntityManager) {
  return new DataLoader<string, DeletionRequest | null>(async (ids) => {
    const rows = await em.find(DeletionRequest, { resourceId: { $in: [...ids] }, status: 'pending' });
    const byId = new Map(rows.map((r) => [r.resourceId, r]));
    return ids.map((id) => byId.get(id) ?? null);
  });
}
