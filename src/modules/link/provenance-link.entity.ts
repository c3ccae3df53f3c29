import { Entity, Enum, Index, OptionalProps, PrimaryKeyProp, Property, type Rel } from '@mikro-orm/core';
import { RELATIONSHIP_TYPES, type RelationshipType } from './relationship';

/**
 * A directed provenance link between two records of one kind (acyclic; at most one per pair),
 * keyed by the pair. No table of its own: each kind declares its `parent` and `child` relations.
 */
@Entity({ abstract: true })
@Index({ properties: ['child'] })
export abstract class ProvenanceLink<T extends object> {
  [PrimaryKeyProp]?: ['parent', 'child'];
  [OptionalProps]?: 'relationshipType' | 'creationTime';

  abstract parent: Rel<T>;

  abstract child: Rel<T>;

  @Enum({ items: () => RELATIONSHIP_TYPES, nullable: true })
  relationshipType?: RelationshipType | null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();
}
