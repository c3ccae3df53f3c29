import { Entity, Enum, Index, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { PublicationMetadata } from './publication-input';

/** A DOI's state at DataCite (draft, registered: resolves but not findable, findable). */
export const DOI_STATES = ['draft', 'registered', 'findable'] as const;
export type DoiState = (typeof DOI_STATES)[number];

export const PUBLICATION_STATES = ['draft', 'published', 'withdrawn'] as const;
export type PublicationState = (typeof PUBLICATION_STATES)[number];

/** One file of a published manifest, as it was when the publication was published. */
export interface ManifestFile {
  fileId: string;
  name: string;
  size: number;
  sha256: string;
}

/** One dataset of a published manifest: its name then, and its files then. */
export interface ManifestDataset {
  datasetId: string;
  name: string | null;
  files: ManifestFile[];
}

/**
 * A publication: datasets made citable. A draft holds its metadata and the ids of its datasets
 * and may change; publishing freezes the metadata and copies the file manifest (names, sizes,
 * SHA-256) into `manifest`, so later changes to the datasets do not change it. Never deleted:
 * withdrawal keeps the row as a tombstone with its reason. A new version points at the one it
 * follows (`previousVersionId`, unique: a version has at most one next version).
 */
@Entity({ tableName: 'publication' })
@Index({ properties: ['creatorId'] })
@Index({ properties: ['state', 'uniqueId'] })
@Index({
  name: 'publication_embargo_idx',
  expression:
    "create index publication_embargo_idx on publication (embargo_until) where embargo_until is not null and state = 'published'",
})
export class Publication {
  [OptionalProps]?: 'creationTime' | 'modificationTime';

  @PrimaryKey({ length: 26 })
  uniqueId!: string;

  @Enum({ items: () => PUBLICATION_STATES })
  state!: PublicationState;

  /** the user who created the draft */
  @Property({ length: 32 })
  creatorId!: string;

  @Property({ type: 'jsonb' })
  metadata!: PublicationMetadata;

  /** the datasets, in the order given */
  @Property({ type: 'jsonb' })
  datasetIds!: string[];

  /** set when published: the datasets and their files as they were then */
  @Property({ type: 'jsonb', nullable: true })
  manifest?: ManifestDataset[] | null;

  @Unique()
  @Property({ length: 26, nullable: true })
  previousVersionId?: string | null;

  /** the DOI, when DataCite is configured: chosen at creation, so it never changes (docs/publications.md) */
  @Unique()
  @Property({ length: 300, nullable: true })
  doi?: string | null;

  /** the DOI's state at DataCite as DataCite last confirmed it; null: nothing registered yet */
  @Enum({ items: () => DOI_STATES, nullable: true })
  doiState?: DoiState | null;

  /** why DataCite (or the local schema check) refused the last registration; shown to its managers */
  @Property({ type: 'text', nullable: true })
  registrationError?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  publishedAt?: Date | null;

  /**
   * Set while a draft: once published, the files of its datasets stay closed to readers who hold
   * no role on them until this moment (src/modules/access/embargo.ts); null: no embargo.
   */
  @Property({ type: 'timestamptz', nullable: true })
  embargoUntil?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  withdrawnAt?: Date | null;

  @Property({ type: 'text', nullable: true })
  withdrawalReason?: string | null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modificationTime: Date = new Date();
}
