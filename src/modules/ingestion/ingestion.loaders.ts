import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import { IngestionRequest } from './ingestion-request.entity';

/**
 * Per-request loaders: the newest ingestion request of many files in one query. Callers pass
 * files they may read (a request is readable with its file's dataset).
 */
export function ingestionLoaders(em: EntityManager) {
  return {
    latestByFile: new DataLoader<string, IngestionRequest | null>(async (ids) => {
      const rows = await rawQuery<Record<string, unknown>>(
        em,
        'select distinct on (file_mfid) * from ingestion_request where file_mfid in (?) order by file_mfid, id desc',
        [[...ids]],
      );
      const byFile = new Map(rows.map((r) => [r.file_mfid as string, em.map(IngestionRequest, r)]));
      return ids.map((id) => byFile.get(id) ?? null);
    }),
  };
}
