import { Field, ID, ObjectType } from 'type-graphql';
import { GraphQLSafeInt } from 'graphql-scalars';
import { BigIntType, Entity, Index, ManyToOne, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { Instrument } from '../instrument/instrument.entity';
import { OwnedRecordEntity } from '../owned-record/owned-record.entity';

/**
 * A dataset record. `project` and `instrument` are the canonical relationships; the `legacy*`
 * columns keep display values for records whose relationship could not be resolved (they are
 * never written when the relationship resolves). `size` is the sum of the stored files' sizes.
 */
@ObjectType('Dataset', {
  description:
    'A dataset record: structured fields; files, metadata, keywords, thumbnails, samples and links hang off it.',
})
@Entity({ tableName: 'dataset' })
@Index({ properties: ['instrument', 'uniqueId'] })
@Index({
  name: 'dataset_name_trgm_idx',
  expression: 'create index dataset_name_trgm_idx on dataset using gin (dataset_name gin_trgm_ops)',
})
export class Dataset extends OwnedRecordEntity<'size'> {
  @Field(() => ID, { description: 'The dataset MFID.' })
  @PrimaryKey({ length: 26 })
  uniqueId!: string;

  @Field(() => String, { description: 'Human-readable name.', nullable: true })
  @Property({ length: 500, nullable: true })
  datasetName?: string | null;

  @Field(() => String, { description: 'Industry-standard experiment type.', nullable: true })
  @Index()
  @Property({ length: 200, nullable: true })
  measurement?: string | null;

  @Field(() => String, { description: 'Institution-specific organization descriptor.', nullable: true })
  @Property({ length: 200, nullable: true })
  dataType?: string | null;

  @Field(() => String, { description: 'File type or extension.', nullable: true })
  @Property({ length: 100, nullable: true })
  dataFormat?: string | null;

  @Field(() => String, { description: 'Tag grouping the datasets of one session.', nullable: true })
  @Index()
  @Property({ length: 200, nullable: true })
  sessionName?: string | null;

  /** ISO 8601 text as supplied: when the data was collected. */
  @Field(() => String, { description: 'ISO 8601: when the data was collected.', nullable: true })
  @Property({ length: 64, nullable: true })
  timestamp?: string | null;

  @ManyToOne(() => Instrument, { fieldName: 'instrument_mfid', nullable: true })
  instrument?: Rel<Instrument> | null;

  @Property({ length: 100, nullable: true })
  legacyProjectId?: string | null;

  @Property({ length: 100, nullable: true })
  legacyInstrumentId?: string | null;

  @Property({ length: 200, nullable: true })
  legacyInstrumentName?: string | null;

  @Field(() => GraphQLSafeInt, { description: "Total size in bytes of the dataset's stored files." })
  @Property({ type: new BigIntType('number'), default: 0 })
  size: number = 0;
}
