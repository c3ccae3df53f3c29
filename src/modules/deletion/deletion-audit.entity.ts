import { Field, Int, ObjectType } from 'type-graphql';
import { Entity, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Node } from '../../core/graphql/node';

/**
 * The record of a permanent deletion. It survives the resource: everything a reader needs is
 * copied in. `requestId` is null for a forced deletion without an approved request.
 */
@ObjectType('DeletionAuditEntry', {
  implements: Node,
  description: 'The record of a permanent deletion; it outlives the resource.',
})
@Entity({ tableName: 'deletion_audit' })
@Index({ properties: ['resourceId'] })
export class DeletionAudit {
  [OptionalProps]?: 'deletedAt';

  @Field(() => Int, { description: 'The audit entry id.' })
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Field(() => Int, { nullable: true, description: 'The approved request, if there was one.' })
  @Property({ type: 'integer', nullable: true })
  requestId?: number | null;

  @Field({ description: 'The MFID of the deleted resource.' })
  @Property({ length: 26 })
  resourceId!: string;

  @Field({ description: 'dataset or sample.' })
  @Property({ length: 20 })
  resourceType!: string;

  @Field(() => String, { nullable: true, description: 'Its name.' })
  @Property({ length: 500, nullable: true })
  resourceName?: string | null;

  @Field(() => String, { nullable: true, description: 'Its project slug.' })
  @Property({ length: 100, nullable: true })
  projectId?: string | null;

  /** the MFID of the resource's project at request time */
  @Field(() => String, { nullable: true, description: 'Its project MFID when requested.' })
  @Property({ length: 26, nullable: true })
  projectMfid?: string | null;

  @Field(() => String, { nullable: true, description: 'Who requested the deletion.' })
  @Property({ length: 32, nullable: true })
  requesterId?: string | null;

  @Field(() => String, { nullable: true, description: 'Why.' })
  @Property({ type: 'text', nullable: true })
  reason?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was requested.' })
  @Property({ type: 'timestamptz', nullable: true })
  requestTime?: Date | null;

  @Field({ description: 'The admin who approved or forced it.' })
  @Property({ length: 32 })
  reviewerId!: string;

  @Field(() => String, { nullable: true, description: 'The reviewer notes.' })
  @Property({ type: 'text', nullable: true })
  reviewerNotes?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was reviewed.' })
  @Property({ type: 'timestamptz', nullable: true })
  reviewTime?: Date | null;

  @Field({ description: 'When the resource was removed.' })
  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  deletedAt: Date = new Date();
}
