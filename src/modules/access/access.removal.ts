import { rawQuery } from '../../core/db/raw';
import type { RemovalHook } from '../removal/removal';

/** Removes the access grants on a resource being deleted. */
export const accessGrantRemoval: RemovalHook = {
  name: 'access grants',
  types: ['dataset', 'sample'],
  phase: 'dependents',
  remove: async (tx, target) => {
    await rawQuery(tx, 'delete from access_grant where resource_id = ?', [target.uniqueId]);
  },
};
