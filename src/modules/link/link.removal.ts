import { rawQuery } from '../../core/db/raw';
import type { RemovalHook } from '../removal/removal';

/** Removes every link and association of a dataset or sample being deleted. */
export const linkRemoval: RemovalHook = {
  name: 'links',
  types: ['dataset', 'sample'],
  phase: 'dependents',
  remove: async (tx, target) => {
    const id = target.uniqueId;
    const table = target.type === 'dataset' ? 'dataset_link' : 'sample_link';
    await rawQuery(tx, `delete from ${table} where parent_mfid = ? or child_mfid = ?`, [id, id]);
    await rawQuery(tx, `delete from dataset_sample where ${target.type}_mfid = ?`, [id]);
  },
};
