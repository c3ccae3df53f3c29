import { Entity, ManyToOne, type Rel } from '@mikro-orm/core';
import { Sample } from '../sample/sample.entity';
import { ProvenanceLink } from './provenance-link.entity';

/** A directed provenance link between two samples (acyclic; at most one per pair). */
@Entity({ tableName: 'sample_link' })
export class SampleLink extends ProvenanceLink<Sample> {
  @ManyToOne(() => Sample, { primary: true, fieldName: 'parent_mfid', deleteRule: 'cascade' })
  parent!: Rel<Sample>;

  @ManyToOne(() => Sample, { primary: true, fieldName: 'child_mfid', deleteRule: 'cascade' })
  child!: Rel<Sample>;
}
