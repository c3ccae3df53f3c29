import { Entity, Index, ManyToOne, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { ScientificMetadata } from './scientific-metadata.entity';

/**
 * The string side index of the scientific metadata: each JSON string of at most
 * `MAX_INDEXED_STRING` characters at its path (arrays element-wise, like the jsonpath
 * conditions). Written with the document (`MetadataStore`), removed with it (cascade). String
 * equality conditions read it: the matches of a value come from one index range, and whether a
 * dataset has it from another, instead of parsing each document (docs/scale.md).
 */
@Entity({ tableName: 'metadata_string' })
@Index({ properties: ['path', 'str', 'resource'] })
@Index({ properties: ['resource', 'path', 'str'] })
export class MetadataString {
  @PrimaryKey({ autoincrement: true, type: 'bigint' })
  id!: string;

  @ManyToOne(() => ScientificMetadata, { fieldName: 'resource_id', deleteRule: 'cascade', index: false })
  resource!: Rel<ScientificMetadata>;

  @Property({ length: 500 })
  path!: string;

  @Property({ length: 200 })
  str!: string;
}
