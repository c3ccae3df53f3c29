import { Field, Int, ObjectType } from 'type-graphql';
import { GraphQLSafeInt } from 'graphql-scalars';
import {
  BigIntType,
  Entity,
  Enum,
  Index,
  ManyToOne,
  OptionalProps,
  PrimaryKey,
  Property,
  type Rel,
} from '@mikro-orm/core';
import { Dataset } from '../dataset/dataset.entity';
import { Node } from '../../core/graphql/node';

/**
 * The statuses the legacy client and workers use (reference §9). A request starts `requested`;
 * a worker sets `started`, then one of the final statuses. Clients poll while a request is
 * `requested` or `started`: anything else counts as final (so `in_progress` is never used).
 * `not_requested` (the 3.2 client's `skip_ingestion`) is recorded final and never queued: the
 * uploader asked for no ingestion.
 */
export const INGESTION_STATUSES = [
  'requested',
  'started',
  'complete',
  'failed',
  'not supported',
  'file not found',
  'not_requested',
] as const;
export type IngestionStatus = (typeof INGESTION_STATUSES)[number];
export const FINAL_STATUSES: ReadonlySet<IngestionStatus> = new Set([
  'complete',
  'failed',
  'not supported',
  'file not found',
  'not_requested',
]);
/**
 * What a worker may report (`PATCH /ingestion_requests/{id}`), and the statuses of analysis
 * requests: every status but `not_requested`, which only an uploader records
 * (`POST /files/{id}/ingest?status=not_requested`).
 */
export const WORKER_STATUSES = INGESTION_STATUSES.filter(
  (s): s is Exclude<IngestionStatus, 'not_requested'> => s !== 'not_requested',
);
export type WorkerStatus = (typeof WORKER_STATUSES)[number];

/**
 * A request to ingest one stored file: extract metadata, structured fields and thumbnails
 * into its dataset. Requests outlive their file (a file deleted meanwhile ends the request
 * `file not found`) but not their dataset.
 */
@ObjectType('IngestionRequest', {
  implements: Node,
  description: 'A request to extract metadata and thumbnails from a stored file into its dataset.',
})
@Entity({ tableName: 'ingestion_request' })
@Index({ properties: ['dataset', 'id'] })
@Index({ properties: ['fileMfid', 'id'] })
export class IngestionRequest {
  [OptionalProps]?: 'status' | 'timeCreated';

  @Field(() => Int, { description: 'The request id.' })
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Field(() => String, {
    description: 'requested, started, complete, failed, not supported, file not found or not_requested.',
  })
  @Enum({ items: () => INGESTION_STATUSES, default: 'requested' })
  status: IngestionStatus = 'requested';

  /** the file's MFID (no foreign key: the request stays when the file is deleted) */
  @Property({ length: 26 })
  fileMfid!: string;

  @ManyToOne(() => Dataset, { fieldName: 'dataset_mfid', deleteRule: 'cascade' })
  dataset!: Rel<Dataset>;

  @Field(() => String, {
    nullable: true,
    description: 'The ingestor asked for; null: the first ingestor that supports the file.',
  })
  @Property({ length: 100, nullable: true })
  ingestionClass?: string | null;

  @Field(() => String, { nullable: true, description: 'The ingestor that ran (or that a worker reported).' })
  @Property({ length: 100, nullable: true })
  ingestorUsed?: string | null;

  @Field(() => String, { nullable: true, description: 'The version of the worker that processed it.' })
  @Property({ length: 100, nullable: true })
  ingestionGithash?: string | null;

  /** who asked (ORCID or MFID) */
  @Property({ length: 32, nullable: true })
  requesterId?: string | null;

  @Field(() => String, { nullable: true, description: 'Why it failed, when it did.' })
  @Property({ type: 'text', nullable: true })
  errorMessage?: string | null;

  @Field({ description: 'When it was requested.' })
  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  timeCreated: Date = new Date();

  @Field(() => Date, { nullable: true, description: 'When a worker last started it.' })
  @Property({ type: 'timestamptz', nullable: true })
  timeStarted?: Date | null;

  @Field(() => Date, { nullable: true, description: 'When it reached its final status.' })
  @Property({ type: 'timestamptz', nullable: true })
  timeCompleted?: Date | null;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description:
      'Bytes of the file the ingestor has read so far, while a large file is read (INGEST_PROGRESS_MIN_BYTES); null before.',
  })
  @Property({ type: new BigIntType('number'), nullable: true })
  bytesRead?: number | null;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description: 'The size of the file being read, with `bytesRead`.',
  })
  @Property({ type: new BigIntType('number'), nullable: true })
  bytesTotal?: number | null;
}
