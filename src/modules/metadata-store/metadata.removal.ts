import { rawQuery } from '../../core/db/raw';
import type { RemovalHook } from '../removal/removal';

/** Removes the scientific metadata of a resource being deleted. */
export const metadataRemoval: RemovalHook = {
  name: 'scientific metadata',
  types: ['dataset', 'sample'],
  phase: 'dependents',
  remove: async (tx, target) => {
    await rawQuery(tx, 'delete from scientific_metadata where resource_id = ?', [target.uniqueId]);
    await rawQuery(tx, 'delete from metadata_version where resource_id = ?', [target.uniqueId]);
  },
};
