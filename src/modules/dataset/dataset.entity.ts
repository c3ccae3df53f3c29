import { BigIntType, Entity, Index, ManyToOne, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { Instrument } from '../instrument/instrument.entity';
import { OwnedRecordEntity } from '../owned-record/owned-record.entity';

/**
 * A dataset record. `project` and `instrument` are the canonical relationships; the `legacy*`
 * columns keep display values for records whose relationship could not be resolved (they are
 * never written when the relationship resolves). `size` is the sum of the stored files' sizes.
 * For writes: reads are rows (dataset-row.ts).
 */
@Entity({ tableName: 'dataset' })
@Index({ properties: ['instrument', 'uniqueId'] })
// the sorted pages by creation or modification time (`columnPageOrder`: key, then MFID)
@Index({ properties: ['creationTime', 'uniqueId'] })
@Index({ properties: ['modificationTime', 'uniqueId'] })
// the sorted pages by name (`columnPageOrder`: the names without regard to case, then MFID)
@Index({
  name: 'dataset_name_order_idx',
  expression: 'create index dataset_name_order_idx on dataset (lower(dataset_name), unique_id)',
})
@Index({
  name: 'dataset_name_trgm_idx',
  expression: 'create index dataset_name_trgm_idx on dataset using gin (dataset_name gin_trgm_ops)',
})
// the GraphQL and page filters on text fields, equal ignoring case (docs/web-app.md, "Search that
// forgives"; the name: dataset_name_order_idx), key then MFID for the newest-first page
@Index({
  name: 'dataset_measurement_lower_idx',
  expression: 'create index dataset_measurement_lower_idx on dataset (lower(measurement), unique_id)',
})
@Index({
  name: 'dataset_data_type_lower_idx',
  expression: 'create index dataset_data_type_lower_idx on dataset (lower(data_type), unique_id)',
})
@Index({
  name: 'dataset_data_format_lower_idx',
  expression: 'create index dataset_data_format_lower_idx on dataset (lower(data_format), unique_id)',
})
@Index({
  name: 'dataset_session_name_lower_idx',
  expression: 'create index dataset_session_name_lower_idx on dataset (lower(session_name), unique_id)',
})
@Index({
  name: 'dataset_legacy_instrument_name_lower_idx',
  expression:
    'create index dataset_legacy_instrument_name_lower_idx on dataset (lower(legacy_instrument_name), unique_id)',
})
export class Dataset extends OwnedRecordEntity<'size'> {
  @PrimaryKey({ length: 26 })
  uniqueId!: string;

  @Property({ length: 500, nullable: true })
  datasetName?: string | null;

  @Index()
  @Property({ length: 200, nullable: true })
  measurement?: string | null;

  @Property({ length: 200, nullable: true })
  dataType?: string | null;

  @Property({ length: 100, nullable: true })
  dataFormat?: string | null;

  @Index()
  @Property({ length: 200, nullable: true })
  sessionName?: string | null;

  /** ISO 8601 text as supplied: when the data was collected. */
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

  @Property({ type: new BigIntType('number'), default: 0 })
  size: number = 0;

  /**
   * Until this moment its files, thumbnails and archives are closed to readers who hold no role
   * on it (src/modules/access/embargo.ts; docs/access-control.md, "Embargo"); null: no embargo.
   */
  @Property({ type: 'timestamptz', nullable: true })
  embargoUntil?: Date | null;
}
