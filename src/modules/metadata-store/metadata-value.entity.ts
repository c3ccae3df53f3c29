import { Entity, Index, ManyToOne, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { ScientificMetadata } from './scientific-metadata.entity';

/**
 * The typed side index of the scientific metadata: each JSON number at its path, and each
 * quantity (`{"value", "unit"}`, `{"v", "u"}`, `"30 degC"`) normalised to SI with its dimension.
 * Written with the document (`MetadataStore`), removed with it (cascade); the document itself is
 * never rewritten. Numeric and unit-aware metadata conditions read it; the index on (path, dim,
 * num, resource_id) gives the matches of a condition without reading the table (docs/scale.md).
 */
@Entity({ tableName: 'metadata_value' })
@Index({ properties: ['path', 'dim', 'num', 'resource'] })
@Index({ properties: ['resource', 'path'] })
export class MetadataValue {
  @PrimaryKey({ autoincrement: true, type: 'bigint' })
  id!: string;

  @ManyToOne(() => ScientificMetadata, { fieldName: 'resource_id', deleteRule: 'cascade', index: false })
  resource!: Rel<ScientificMetadata>;

  @Property({ length: 500 })
  path!: string;

  @Property({ length: 40 })
  dim!: string;

  @Property({ type: 'double' })
  num!: number;
}
