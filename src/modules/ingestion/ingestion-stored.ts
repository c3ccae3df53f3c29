import type { StoredFileHook } from '../file/stored-file';
import type { IngestionService } from './ingestion.service';

/** Records (and queues) the ingestion request of a new stored file, in the transaction that records the file. */
export function ingestionOnStore(ingestion: IngestionService): StoredFileHook {
  return {
    name: 'ingestion request',
    recordedIn: async (tx, file) => {
      if (!file.ingest) return;
      await ingestion.createIn(tx, file, file.ingestor, file.creatorId);
    },
  };
}
