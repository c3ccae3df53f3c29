import { Entity, Index, ManyToOne, OptionalProps, PrimaryKeyProp, Property, type Rel } from '@mikro-orm/core';
import { Dataset } from '../dataset/dataset.entity';
import { Sample } from '../sample/sample.entity';

/** An (undirected) association of a dataset with a sample it was measured on. */
@Entity({ tableName: 'dataset_sample' })
@Index({ properties: ['sample'] })
export class DatasetSample {
  [PrimaryKeyProp]?: ['dataset', 'sample'];
  [OptionalProps]?: 'creationTime';

  @ManyToOne(() => Dataset, { primary: true, fieldName: 'dataset_mfid', deleteRule: 'cascade' })
  dataset!: Rel<Dataset>;

  @ManyToOne(() => Sample, { primary: true, fieldName: 'sample_mfid', deleteRule: 'cascade' })
  sample!: Rel<Sample>;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();
}
