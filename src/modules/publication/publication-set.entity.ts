import { Entity, Index, PrimaryKey } from '@mikro-orm/core';

/**
 * The OAI-PMH sets a published publication belongs to: the projects its datasets were in when
 * it was published, written by the publishing transaction and never changed after, so that a
 * harvest of a set sees the same members from its first page to its last (docs/publications.md,
 * "Harvesting"). No foreign keys: a publication outlives the projects and datasets it names.
 */
@Entity({ tableName: 'publication_set' })
@Index({ properties: ['projectMfid', 'publicationId'] })
export class PublicationSet {
  @PrimaryKey({ length: 26 })
  publicationId!: string;

  @PrimaryKey({ length: 26 })
  projectMfid!: string;
}
