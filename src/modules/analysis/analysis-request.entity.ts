import {
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
import { WORKER_STATUSES, type WorkerStatus } from '../ingestion/ingestion-request.entity';

/** The analyses the legacy client can ask for (reference §5.2 #21–#24); each has its own queue. */
export const ANALYSES = [
  'carrier_segmentation',
  'insitu_spec_aggregation',
  'rga_analysis',
  'mosaic_stitch',
] as const;
export type Analysis = (typeof ANALYSES)[number];

/**
 * A request for an analysis of a dataset, queued on the analysis's own queue for a consumer
 * outside this service (none ships with it, so requests stay `requested` until one reports).
 * Statuses use the ingestion vocabulary.
 */
@Entity({ tableName: 'analysis_request' })
@Index({ properties: ['dataset', 'id'] })
export class AnalysisRequest {
  [OptionalProps]?: 'status' | 'timeCreated';

  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Dataset, { fieldName: 'dataset_mfid', deleteRule: 'cascade' })
  dataset!: Rel<Dataset>;

  @Enum({ items: () => ANALYSES })
  analysis!: Analysis;

  @Enum({ items: () => WORKER_STATUSES, default: 'requested' })
  status: WorkerStatus = 'requested';

  @Property({ length: 32, nullable: true })
  requesterId?: string | null;

  @Property({ type: 'text', nullable: true })
  errorMessage?: string | null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  timeCreated: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  timeCompleted?: Date | null;
}
