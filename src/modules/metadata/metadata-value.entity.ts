import { Entity, Index, ManyToOne, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { ScientificMetadata } from './scientific-metadata.entity';

/**
 * The typed side index of the scientific metadata: each JSON number at its path, each quantity
 * (`{"value", "unit"}`, `{"v", "u"}`, `"30 degC"`) normalised to SI with its dimension, and each
 * short string (`dim = 'string'`, `num = 0`). Written with the document (`MetadataStore`),
 * removed with it (cascade); the document itself is never rewritten. Numeric, unit-aware and
 * string-equality metadata conditions read it; the index on (path, dim, num, str, resource_id)
 * gives the matches of a condition without reading the table (docs/scale.md).
 */
@Entity({ tableName: 'metadata_value' })
@Index({ properties: ['path', 'dim', 'num', 'str', 'resource'] })
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

  /** the string, for `dim = 'string'` */
  @Property({ length: 200, nullable: true })
  str?: string;
}
