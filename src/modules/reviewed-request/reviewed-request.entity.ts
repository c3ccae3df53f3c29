import { Field, Int, ObjectType } from 'type-graphql';
import { Entity, Enum, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

export const REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/**
 * A request awaiting a review (deletion requests, join requests): an integer id, the
 * requester's reason, a status, and who reviewed it, when and with what notes. No table or
 * GraphQL type of its own. `reason` and `reviewerId` are columns here; each kind describes them
 * in its own GraphQL type.
 */
@ObjectType()
@Entity({ abstract: true })
export abstract class ReviewedRequest {
  [OptionalProps]?: 'status' | 'requestTime';

  @Field(() => Int, { description: 'The request id.' })
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Property({ type: 'text', nullable: true })
  reason?: string | null;

  @Field(() => String, { description: 'pending, approved or rejected.' })
  @Enum({ items: () => REVIEW_STATUSES, default: 'pending' })
  status: ReviewStatus = 'pending';

  @Field({ description: 'When it was asked.' })
  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  requestTime: Date = new Date();

  @Property({ length: 32, nullable: true })
  reviewerId?: string | null;

  @Field(() => String, { nullable: true, description: 'The reviewer notes.' })
  @Property({ type: 'text', nullable: true })
  reviewerNotes?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was reviewed.' })
  @Property({ type: 'timestamptz', nullable: true })
  reviewTime?: Date | null;
}
