import { Entity, Index, OptionalProps, PrimaryKey, PrimaryKeyProp, Property } from '@mikro-orm/core';

/**
 * One batch edit of datasets (docs/web-app.md, "Edit many at once"): the operation, the targets
 * frozen at preview time, the digest of the state the preview saw (its token), and where it
 * stands: `previewed`, `applied` or `undone`. Written only by the batch module.
 */
@Entity({ tableName: 'batch_edit' })
@Index({ properties: ['actorId', 'createdAt'] })
export class BatchEdit {
  [OptionalProps]?: 'createdAt' | 'appliedAt' | 'undoneAt' | 'changedCount';

  /** the batch's MFID */
  @PrimaryKey({ length: 26 })
  id!: string;

  /** who previewed it: the only caller (with platform administrators) who may apply or undo it */
  @Property({ length: 32 })
  actorId!: string;

  /** the operation, as validated (`{kind, …}`) */
  @Property({ type: 'jsonb' })
  operation!: Record<string, unknown>;

  /** `ids` (a list) or `search` (all results of a search, resolved at preview time) */
  @Property({ length: 10 })
  targetSource!: string;

  @Property({ length: 10 })
  status!: string;

  /** the digest of every target's state as the preview saw it: the preview token */
  @Property({ length: 64 })
  token!: string;

  @Property({ type: 'integer' })
  targetCount!: number;

  /** how many targets the batch changes (the others already have what it asks) */
  @Property({ type: 'integer', default: 0 })
  changedCount: number = 0;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  /** a preview not applied by then cannot be */
  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  appliedAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  undoneAt?: Date | null;
}

/**
 * One target of a batch: the value the operation reads and writes before and after it (a
 * keyword's presence, a field, the merged metadata keys, a grant, the public flag) and whether
 * it changes. What undo restores, and what it compares against before restoring.
 */
@Entity({ tableName: 'batch_edit_item' })
export class BatchEditItem {
  [PrimaryKeyProp]?: ['batchId', 'datasetMfid'];

  @PrimaryKey({ length: 26 })
  batchId!: string;

  @PrimaryKey({ length: 26 })
  datasetMfid!: string;

  @Property({ type: 'jsonb', nullable: true })
  before?: unknown;

  @Property({ type: 'jsonb', nullable: true })
  after?: unknown;

  @Property({ default: false })
  changes: boolean = false;
}
