import { rawQuery } from '../../core/db/raw';
import type { RemovalHook } from '../removal/removal';

/** Removes a dataset's thumbnails (their bytes are stored in the row) inside the removal transaction. */
export const thumbnailRemoval: RemovalHook = {
  name: 'thumbnails',
  types: ['dataset'],
  phase: 'dependents',
  remove: async (tx, target) => {
    await rawQuery(tx, 'delete from thumbnail where dataset_mfid = ?', [target.uniqueId]);
  },
};
