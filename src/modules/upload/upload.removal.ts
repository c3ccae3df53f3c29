import { rawQuery } from '../../core/db/raw';
import type { ObjectStore } from '../../core/storage/object-store';
import type { RemovalHook } from '../removal/removal';

/**
 * Removes a dataset's upload sessions inside the removal transaction; the objects of unfinished
 * ones (and their multipart uploads) are deleted once it has committed.
 */
export function uploadSessionRemoval(store: ObjectStore): RemovalHook {
  return {
    name: 'upload sessions',
    types: ['dataset'],
    phase: 'dependents',
    remove: async (tx, target) => {
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
      };
    },
  };
}
