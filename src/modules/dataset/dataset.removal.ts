import { rawQuery } from '../../core/db/raw';
import type { RemovalHook } from '../deletion/removal';

/** Deletes the dataset row itself, after every module removed its dependents. */
export const datasetRecordRemoval: RemovalHook = {
  name: 'dataset record',
  types: ['dataset'],
  phase: 'record',
  remove: async (tx, target) => {
    await rawQuery(tx, 'delete from dataset where unique_id = ?', [target.uniqueId]);
  },
};
