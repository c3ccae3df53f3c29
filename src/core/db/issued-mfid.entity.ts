import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * Every identifier ever issued to a record, of any kind, once: an MFID names one record forever.
 * Kept by the database (statement triggers on each table whose rows carry an MFID, in the
 * creating transaction), never written by the application, never emptied when a record is
 * removed. Per-resource rows keyed by the MFID alone (scientific metadata, history, grants,
 * keywords, thumbnails, links, deletion requests) rely on it: a client-supplied `unique_id`
 * that was ever issued, to a record of another kind or to a removed one, fails the create with
 * a unique violation (409 "taken"), and of two concurrent creates only one commits.
 * docs/access-control.md, "One MFID, one record".
 */
@Entity({ tableName: 'issued_mfid' })
export class IssuedMfid {
  [OptionalProps]?: 'issuedAt';

  @PrimaryKey({ length: 32 })
  mfid!: string;

  /** the kind of record it was issued to: dataset, sample, project, instrument, user, file, ... */
  @Property({ length: 20 })
  kind!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  issuedAt: Date = new Date();
}

/**
 * An MFID that a database held for more than one record before `issued_mfid` existed (found by
 * its migration): two live records of different kinds, or a record created again after its
 * removal. Reported at every start until an administrator resolves it and deletes the row.
 */
@Entity({ tableName: 'mfid_collision' })
export class MfidCollision {
  [OptionalProps]?: 'foundAt';

  @PrimaryKey({ length: 32 })
  mfid!: string;

  /** what holds or held it: kinds of live records, and `removed <kind>` for removed ones */
  @Property({ type: 'text' })
  detail!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  foundAt: Date = new Date();
}
