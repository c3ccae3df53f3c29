import { Entity, Enum, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { RESOURCE_TYPES, type ResourceType } from '../permission/permission';

/**
 * The free-form scientific metadata of one resource (dataset, sample, project or instrument),
 * kept apart from the structured fields. `data` is GIN-indexed (jsonb_path_ops) for typed path
 * queries; `search` is its full-text vector (English stemming, keys and values), maintained by
 * the database and GIN-indexed for ranked search. Resource ids are MFIDs of any type, so there
 * is no foreign key: removal goes through the resource-removal hooks.
 */
@Entity({ tableName: 'scientific_metadata' })
@Index({
  name: 'scientific_metadata_data_idx',
  expression:
    'create index scientific_metadata_data_idx on scientific_metadata using gin (data jsonb_path_ops)',
})
@Index({
  name: 'scientific_metadata_search_idx',
  expression: 'create index scientific_metadata_search_idx on scientific_metadata using gin (search)',
})
// one per kind but datasets (whose metadata the index above serves): the metadata search's branch
// for samples must not probe every readable sample when datasets hold a term (docs/scale.md)
@Index({
  name: 'scientific_metadata_search_sample_idx',
  expression: `create index "scientific_metadata_search_sample_idx" on "scientific_metadata" using gin ("search") where "resource_type" = 'sample'`,
})
@Index({
  name: 'scientific_metadata_search_project_idx',
  expression: `create index "scientific_metadata_search_project_idx" on "scientific_metadata" using gin ("search") where "resource_type" = 'project'`,
})
@Index({
  name: 'scientific_metadata_search_instrument_idx',
  expression: `create index "scientific_metadata_search_instrument_idx" on "scientific_metadata" using gin ("search") where "resource_type" = 'instrument'`,
})
export class ScientificMetadata {
  [OptionalProps]?: 'search' | 'creationTime' | 'modificationTime';

  @PrimaryKey({ length: 26 })
  resourceId!: string;

  @Enum({ items: () => RESOURCE_TYPES })
  resourceType!: ResourceType;

  @Property({ type: 'jsonb' })
  data!: Record<string, unknown>;

  @Property({
    type: 'tsvector',
    generated: `(jsonb_to_tsvector('english', data, '["all"]')) stored`,
    lazy: true,
    hidden: true,
  })
  search?: unknown;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modificationTime: Date = new Date();
}
