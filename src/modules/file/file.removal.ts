import { rawQuery } from '../../core/db/raw';
import type { ObjectStore } from '../../core/storage/object-store';
import type { RemovalHook } from '../removal/removal';

/**
 * Removes a dataset's file records inside the removal transaction; their objects are deleted once
 * it has committed. (Thumbnails and upload sessions have their own modules' hooks.)
 */
export function fileRemoval(store: ObjectStore): RemovalHook {
  return {
    name: 'files',
    types: ['dataset'],
    phase: 'dependents',
    remove: async (tx, target) => {
      const files = await rawQuery<{ storage_key: string | null }>(
        tx,
        'delete from associated_file where dataset_mfid = ? returning storage_key',
        [target.uniqueId],
      );
      return async () => {
        for (const f of files) if (f.storage_key) await store.delete(f.storage_key);
      };
    },
  };
}
