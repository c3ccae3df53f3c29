import { NullableString, Type } from '../../core/rest/schema';
import type { IngestionRequest } from './ingestion-request.entity';
import { iso } from '../../core/rest/wire';

/** The legacy REST shape of an ingestion request (reference §5.7, §9; integer id). */
export function toLegacyIngestionRequest(r: IngestionRequest): Record<string, unknown> {
  return {
    id: r.id,
    status: r.status,
    ingestion_class: r.ingestionClass ?? null,
    ingestor_used: r.ingestorUsed ?? null,
    ingestion_githash: r.ingestionGithash ?? null,
    file_mfid: r.fileMfid,
    dataset_mfid: r.dataset.uniqueId,
    time_created: iso(r.timeCreated),
    time_started: iso(r.timeStarted),
    time_completed: iso(r.timeCompleted),
    error_message: r.errorMessage ?? null,
    // what the 3.1 CLI's ingestion tables read (`crucible dataset ingestion`, `file ingestion`)
    file_id: r.fileMfid,
    created_at: iso(r.timeCreated),
  };
}

const nullable = NullableString();
export const INGESTION_REQUEST = Type.Object(
  {
    id: Type.Integer(),
    status: Type.String(),
    ingestion_class: nullable,
    ingestor_used: nullable,
    ingestion_githash: nullable,
    file_mfid: Type.String(),
    dataset_mfid: Type.String(),
    time_created: Type.String({ format: 'date-time' }),
    time_started: nullable,
    time_completed: nullable,
    error_message: nullable,
    file_id: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'IngestionRequest' },
);
