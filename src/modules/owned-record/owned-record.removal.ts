import { rawQuery } from '../../core/db/raw';
import type { RemovalHook } from '../removal/removal';

/** Deletes the row of a dataset or sample itself, after every module removed its dependents. */
export function ownedRecordRemoval(type: 'dataset' | 'sample'): RemovalHook {
  return {
    name: `${type} record`,
    types: [type],
    phase: 'record',
    remove: async (tx, target) => {
      await rawQuery(tx, `delete from ${type} where unique_id = ?`, [target.uniqueId]);
    },
  };
}
