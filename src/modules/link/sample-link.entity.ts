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
import { Sample } from '../sample/sample.entity';
import { RELATIONSHIP_TYPES, type RelationshipType } from './relationship';

/** A directed provenance link between two samples (acyclic; at most one per pair). */
@Entity({ tableName: 'sample_link' })
@Index({ properties: ['child'] })
export class SampleLink {
  [PrimaryKeyProp]?: ['parent', 'child'];
  [OptionalProps]?: 'relationshipType' | 'creationTime';

  @ManyToOne(() => Sample, { primary: true, fieldName: 'parent_mfid', deleteRule: 'cascade' })
  parent!: Rel<Sample>;

  @ManyToOne(() => Sample, { primary: true, fieldName: 'child_mfid', deleteRule: 'cascade' })
  child!: Rel<Sample>;

  @Enum({ items: () => RELATIONSHIP_TYPES, nullable: true })
  relationshipType?: RelationshipType | null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();
}
