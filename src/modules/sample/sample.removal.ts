import { rawQuery } from '../../core/db/raw';
import type { RemovalHook } from '../deletion/removal';

/** Deletes the sample row itself, after every module removed its dependents. */
export const sampleRecordRemoval: RemovalHook = {
  name: 'sample record',
  types: ['sample'],
  phase: 'record',
  remove: async (tx, target) => {
    await rawQuery(tx, 'delete from sample where unique_id = ?', [target.uniqueId]);
  },
};
