import { BigIntType, Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * How many samples carry one value of one facet field (`dim`: `all` with a null value, `owner`,
 * `project`, `sample_type`), per visibility bucket (`scope`: `A` every sample, `P` the public
 * ones, `V` the private ones of one owner and project), `A` and `P` rows in eight `shard`s: the
 * dataset totals' shape (`DatasetTotal`), for the sample facet pages without a filter. Kept by
 * the database (statement triggers on `sample`), never written by the application; counts
 * every sample, also those a deletion request hides (queries subtract them). docs/scale.md,
 * "Facet fields and sorted pages".
 */
@Entity({ tableName: 'sample_total' })
@Index({
  name: 'sample_total_key_idx',
  expression:
    'create unique index sample_total_key_idx on sample_total (dim, value, scope, owner_id, project_mfid, shard) nulls not distinct',
})
@Index({ name: 'sample_total_scope_idx', properties: ['dim', 'scope', 'ownerId', 'projectMfid'] })
@Index({ name: 'sample_total_scope_project_idx', properties: ['dim', 'scope', 'projectMfid'] })
export class SampleTotal {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Property({ length: 16 })
  dim!: string;

  @Property({ length: 200, nullable: true })
  value?: string | null;

  @Property({ length: 1 })
  scope!: string;

  @Property({ length: 32, nullable: true })
  ownerId?: string | null;

  @Property({ length: 26, nullable: true })
  projectMfid?: string | null;

  @Property({ type: 'smallint' })
  shard!: number;

  @Property({ type: new BigIntType('number') })
  n!: number;
}
