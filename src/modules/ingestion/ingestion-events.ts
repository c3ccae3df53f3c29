import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventService } from '../outbox/event.service';
import type { EventType } from '../outbox/domain-event';
import type { IngestionStatus } from './ingestion-request.entity';

const TYPES: Record<IngestionStatus, EventType> = {
  requested: 'ingestion.requested',
  started: 'ingestion.started',
  complete: 'ingestion.complete',
  failed: 'ingestion.failed',
  'not supported': 'ingestion.not_supported',
  'file not found': 'ingestion.failed',
  not_requested: 'ingestion.not_requested',
};

/** What an ingestion event says: the request, its file and where it stands. */
export interface IngestionEventInput {
  requestId: number;
  datasetId: string;
  fileId: string;
  status: IngestionStatus;
  actorId: string | null;
  ingestor?: string | null;
  error?: string | null;
  /** more for the payload (what a completed ingestion changed) */
  details?: Record<string, unknown>;
}

/** Records an ingestion request reaching `status`, on its dataset, inside `tx`. */
export function emitIngestion(
  events: EventService,
  tx: EntityManager,
  e: IngestionEventInput,
): Promise<string> {
  return events.emit(tx, {
    type: TYPES[e.status],
    actorId: e.actorId,
    resourceId: e.datasetId,
    resourceType: 'dataset',
    payload: {
      request_id: e.requestId,
      file_id: e.fileId,
      status: e.status,
      ...(e.ingestor ? { ingestor: e.ingestor } : {}),
      ...(e.error ? { error: e.error } : {}),
      ...e.details,
    },
  });
}
