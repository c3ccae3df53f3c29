import { Entity, ManyToOne, type Rel } from '@mikro-orm/core';
import { Dataset } from '../dataset/dataset.entity';
import { ProvenanceLink } from './provenance-link.entity';

/** A directed provenance link between two datasets (acyclic; at most one per pair). */
@Entity({ tableName: 'dataset_link' })
export class DatasetLink extends ProvenanceLink<Dataset> {
  @ManyToOne(() => Dataset, { primary: true, fieldName: 'parent_mfid', deleteRule: 'cascade' })
  parent!: Rel<Dataset>;

  @ManyToOne(() => Dataset, { primary: true, fieldName: 'child_mfid', deleteRule: 'cascade' })
  child!: Rel<Dataset>;
}
