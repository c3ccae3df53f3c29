import { Entity, Index, OneToOne, PrimaryKeyProp, Property, type Rel } from '@mikro-orm/core';
import { Dataset } from './dataset.entity';

/**
 * The full-text vector of one dataset: its structured text fields (name, measurement, data type,
 * data format, session name) and its scientific metadata (keys and values), English stemming.
 * A side table so that dataset rows stay narrow. Written only by the database: triggers on
 * `dataset` and `scientific_metadata` call `dataset_text_refresh` (docs/scale.md), so every
 * writer (services, ingestion, raw SQL) keeps it current. Never written by the application.
 */
@Entity({ tableName: 'dataset_text' })
@Index({
  name: 'dataset_text_search_idx',
  expression: 'create index dataset_text_search_idx on dataset_text using gin (search)',
})
export class DatasetText {
  [PrimaryKeyProp]?: 'dataset';

  @OneToOne(() => Dataset, {
    primary: true,
    owner: true,
    fieldName: 'dataset_mfid',
    deleteRule: 'cascade',
  })
  dataset!: Rel<Dataset>;

  @Property({ type: 'tsvector' })
  search!: unknown;
}
