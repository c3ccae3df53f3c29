import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { actorOf, type EventService } from '../outbox/event.service';

export type FileEventType = 'file.added' | 'file.removed' | 'file.storage_path_set' | 'file.updated';

/**
 * A file event, on its dataset, in the caller's transaction: the file's id, name, size and
 * digest, and its changes (whichever `row` has).
 */
export async function emitFileEvent(
  events: EventService,
  tx: EntityManager,
  ctx: RequestContext,
  type: FileEventType,
  datasetId: string,
  row: Record<string, unknown>,
): Promise<void> {
  const payload: Record<string, unknown> = {};
  for (const key of ['unique_id', 'filename', 'size', 'sha256', 'storage_path', 'changes']) {
    if (row[key] !== undefined) payload[key === 'unique_id' ? 'file_id' : key] = row[key];
  }
  await events.emit(tx, {
    type,
    actorId: actorOf(ctx),
    resourceId: datasetId,
    resourceType: 'dataset',
    payload,
  });
}
