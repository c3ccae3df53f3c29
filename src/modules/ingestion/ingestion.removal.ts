import type { JobQueue } from '../../core/jobs/queue';
import type { RemovalHook } from '../removal/removal';

/**
 * Drops the unfinished jobs about a dataset being removed (its ingestion and analysis requests
 * go with the dataset row, by foreign key).
 */
export function jobRemoval(queue: JobQueue, queues: readonly string[]): RemovalHook {
  return {
    name: 'queued jobs',
    types: ['dataset'],
    phase: 'dependents',
    remove: async (tx, target) => {
      await queue.discardWhere(tx, queues, 'dataset_mfid', target.uniqueId);
    },
  };
}
