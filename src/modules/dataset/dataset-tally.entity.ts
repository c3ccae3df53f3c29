import { BigIntType, Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * How many datasets share one combination of the columns that visibility and the common filters
 * test (public, owner, project, instrument, measurement, data type): exact totals and facets
 * without reading every dataset row. Kept by the database (statement triggers on `dataset`, one
 * grouped upsert each), never written by the application; docs/scale.md has the design and its
 * cost on writes. Counts every dataset, also those a deletion request hides (queries subtract them).
 */
@Entity({ tableName: 'dataset_tally' })
@Index({
  name: 'dataset_tally_key_idx',
  expression:
    'create unique index dataset_tally_key_idx on dataset_tally (public, owner_id, project_mfid, instrument_mfid, measurement, data_type) nulls not distinct',
})
export class DatasetTally {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Property()
  public!: boolean;

  @Property({ length: 32 })
  ownerId!: string;

  @Property({ length: 26, nullable: true })
  projectMfid?: string | null;

  @Property({ length: 26, nullable: true })
  instrumentMfid?: string | null;

  @Property({ length: 200, nullable: true })
  measurement?: string | null;

  @Property({ length: 200, nullable: true })
  dataType?: string | null;

  @Property({ type: new BigIntType('number') })
  n!: number;
}
