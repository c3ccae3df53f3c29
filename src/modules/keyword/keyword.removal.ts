import { rawQuery } from '../../core/db/raw';
import type { RemovalHook } from '../removal/removal';

/** Detaches the keywords of a dataset being deleted (the keywords themselves stay). */
export const keywordRemoval: RemovalHook = {
  name: 'keywords',
  types: ['dataset'],
  phase: 'dependents',
  remove: async (tx, target) => {
    await rawQuery(tx, 'delete from dataset_keyword where dataset_mfid = ?', [target.uniqueId]);
  },
};
