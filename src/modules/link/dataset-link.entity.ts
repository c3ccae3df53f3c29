import {
  Entity,
  Enum,
  Index,
  ManyToOne,
  OptionalProps,
  PrimaryKeyProp,
  Property,
  type Rel,
} from '@mikro-orm/core';
import { Dataset } from '../dataset/dataset.entity';
import { RELATIONSHIP_TYPES, type RelationshipType } from './relationship';

/** A directed provenance link between two datasets (acyclic; at most one per pair). */
@Entity({ tableName: 'dataset_link' })
@Index({ properties: ['child'] })
export class DatasetLink {
  [PrimaryKeyProp]?: ['parent', 'child'];
  [OptionalProps]?: 'relationshipType' | 'creationTime';

  @ManyToOne(() => Dataset, { primary: true, fieldName: 'parent_mfid', deleteRule: 'cascade' })
  parent!: Rel<Dataset>;

  @ManyToOne(() => Dataset, { primary: true, fieldName: 'child_mfid', deleteRule: 'cascade' })
  child!: Rel<Dataset>;

  @Enum({ items: () => RELATIONSHIP_TYPES, nullable: true })
  relationshipType?: RelationshipType | null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();
}
