import { rawQuery } from '../../core/db/raw';
import type { ObjectStore } from '../../core/storage/object-store';
import type { RemovalHook } from '../removal/removal';

/**
 * Removes a dataset's file records, thumbnails and unfinished upload sessions inside the removal
 * transaction; their objects (and multipart uploads) are deleted once it has committed.
 */
export function fileRemoval(store: ObjectStore): RemovalHook {
  return {
    name: 'files, thumbnails and upload sessions',
    types: ['dataset'],
    phase: 'dependents',
    remove: async (tx, target) => {
      const files = await rawQuery<{ storage_key: string | null }>(
        tx,
        'delete from associated_file where dataset_mfid = ? returning storage_key',
        [target.uniqueId],
      );
      await rawQuery(tx, 'delete from thumbnail where dataset_mfid = ?', [target.uniqueId]);
      const sessions = await rawQuery<{ storage_key: string; multipart_id: string | null; status: string }>(
        tx,
        'delete from upload_session where dataset_mfid = ? returning storage_key, multipart_id, status',
        [target.uniqueId],
      );
      return async () => {
        for (const s of sessions) {
          if (s.status === 'completed') continue;
          if (s.multipart_id)
            await store.abortMultipart(s.storage_key, s.multipart_id).catch(() => undefined);
          await store.delete(s.storage_key);
        }
        for (const f of files) if (f.storage_key) await store.delete(f.storage_key);
      };
    },
  };
}
