import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';
import { OwnedRecordEntity } from '../owned-record/owned-record.entity';

/**
 * A physical sample. Visibility works exactly like datasets: owner, project membership, grants,
 * public. Samples link to parent/child samples and, many to many, to datasets.
 */
@Entity({ tableName: 'sample' })
// the sorted pages by creation or modification time (`columnPageOrder`: key, then MFID)
@Index({ properties: ['creationTime', 'uniqueId'] })
@Index({ properties: ['modificationTime', 'uniqueId'] })
// the sorted pages by name (`columnPageOrder`: the names without regard to case, then MFID)
@Index({
  name: 'sample_name_order_idx',
  expression: 'create index sample_name_order_idx on sample (lower(sample_name), unique_id)',
})
@Index({
  name: 'sample_name_trgm_idx',
  expression: 'create index sample_name_trgm_idx on sample using gin (sample_name gin_trgm_ops)',
})
export class Sample extends OwnedRecordEntity {
  @PrimaryKey({ length: 26 })
  uniqueId!: string;

  @Property({ length: 500, nullable: true })
  sampleName?: string | null;

  @Index()
  @Property({ length: 200, nullable: true })
  sampleType?: string | null;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  /** ISO 8601 text as supplied: when the sample was made or collected. */
  @Property({ length: 64, nullable: true })
  timestamp?: string | null;
}
