import { Entity, Index } from '@mikro-orm/core';
import { VisibilityTotal } from '../permission/visibility-total.entity';

/**
 * How many datasets carry one value of one filter dimension (`dim`: `all` with a null value,
 * `owner`, `project`, `instrument`, `measurement`, `data_type`, and the facet fields `session`
 * and `data_format`), per visibility bucket (`scope`:
 * `A` every dataset, `P` the public ones, `V` the private ones of one owner and project): the
 * exact total of an unfiltered or single-filter list from a few index lookups, however large
 * the catalog (`dataset_tally` answers combinations and facets, but holds a row per
 * combination, which grows with the catalog). The `A` and `P` rows are split in eight `shard`s
 * by the dataset's MFID, so concurrent writers seldom wait on the same row. Kept by the database
 * (statement triggers on `dataset`), never written by the application; counts every dataset,
 * also those a deletion request hides (queries subtract them). docs/scale.md, "Totals in
 * constant time". The field facets read one dimension's rows per scope (`dataset_total_scope_idx`:
 * every value of the A or P rows, or of the caller's own V rows; `dataset_total_scope_project_idx`:
 * the V rows of the caller's projects), "Facet fields and sorted pages".
 */
@Entity({ tableName: 'dataset_total' })
@Index({
  name: 'dataset_total_key_idx',
  expression:
    'create unique index dataset_total_key_idx on dataset_total (dim, value, scope, owner_id, project_mfid, shard) nulls not distinct',
})
@Index({ name: 'dataset_total_project_idx', properties: ['dim', 'value', 'scope', 'projectMfid'] })
@Index({ name: 'dataset_total_scope_idx', properties: ['dim', 'scope', 'ownerId', 'projectMfid'] })
@Index({ name: 'dataset_total_scope_project_idx', properties: ['dim', 'scope', 'projectMfid'] })
export class DatasetTotal extends VisibilityTotal {}
