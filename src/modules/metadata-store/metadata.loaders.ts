import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import type { MetadataDocument } from './metadata-document';

/**
 * The metadata documents of many resources in one query (null where there is none). Callers
 * load only resources they have already been allowed to read.
 */
export function metadataLoader(em: EntityManager) {
  return new DataLoader<string, MetadataDocument | null>(async (ids) => {
    const rows = await rawQuery<{ resource_id: string; data: MetadataDocument }>(
      em,
      'select resource_id, data from scientific_metadata where resource_id in (?)',
      [[...ids]],
    );
    const byId = new Map(rows.map((r) => [r.resource_id, r.data]));
    return ids.map((id) => byId.get(id) ?? null);
  });
}
