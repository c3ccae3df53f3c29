import { Entity, Index, ManyToOne, OptionalProps, PrimaryKeyProp, Property, type Rel } from '@mikro-orm/core';
import { Dataset } from '../dataset/dataset.entity';
import { Keyword } from './keyword.entity';

/** The keywords of a dataset (many to many). */
@Entity({ tableName: 'dataset_keyword' })
/** the datasets of a keyword in MFID order: the keyword filter's id list (docs/scale.md) */
@Index({ name: 'dataset_keyword_keyword_dataset_idx', properties: ['keyword', 'dataset'] })
export class DatasetKeyword {
  [PrimaryKeyProp]?: ['dataset', 'keyword'];
  [OptionalProps]?: 'creationTime';

  @ManyToOne(() => Dataset, { primary: true, fieldName: 'dataset_mfid', deleteRule: 'cascade' })
  dataset!: Rel<Dataset>;

  @ManyToOne(() => Keyword, { primary: true, fieldName: 'keyword_id', deleteRule: 'cascade', index: true })
  keyword!: Rel<Keyword>;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();
}
