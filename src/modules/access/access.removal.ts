import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import type { RemovalHook } from '../removal/removal';

/** Removes the grants made to a user being deleted (user administration calls it in its transaction). */
export const userGrantRemoval = {
  async removeUserGrantsIn(tx: EntityManager, userId: string): Promise<void> {
    await rawQuery(tx, `delete from access_grant where principal_type = 'user' and principal_id = ?`, [
      userId,
    ]);
  },
};

/** Removes the access grants on a resource being deleted. */
export const accessGrantRemoval: RemovalHook = {
  name: 'access grants',
  types: ['dataset', 'sample'],
  phase: 'dependents',
  remove: async (tx, target) => {
    await rawQuery(tx, 'delete from access_grant where resource_id = ?', [target.uniqueId]);
  },
};
