import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/core';

/**
 * One version of a resource's scientific metadata: the whole document as a write left it
 * (creation, merge, replace, ingestion, restore), numbered from 1 per resource. Written by the
 * `MetadataStore` in the transaction of the write, so versions and documents never disagree;
 * read for the history's metadata diff and restored as a new version (docs/web-app.md).
 */
@Entity({ tableName: 'metadata_version' })
@Unique({ properties: ['resourceId', 'version'] })
export class MetadataVersion {
  @PrimaryKey()
  id!: number;

  @Property({ length: 26 })
  resourceId!: string;

  @Property()
  version!: number;

  @Property({ type: 'jsonb' })
  data!: Record<string, unknown>;

  /** who wrote it; null for the service itself (ingestion) */
  @Property({ length: 32, nullable: true })
  actorId?: string | null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  time: Date = new Date();
}
