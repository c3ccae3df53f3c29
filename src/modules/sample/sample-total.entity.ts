import { Entity, Index } from '@mikro-orm/core';
import { VisibilityTotal } from '../permission/visibility-total.entity';

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
export class SampleTotal extends VisibilityTotal {}
