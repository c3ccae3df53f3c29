import { Field, Int, ObjectType } from 'type-graphql';
import {
  Entity,
  Enum,
  Index,
  ManyToOne,
  OptionalProps,
  PrimaryKey,
  Property,
  type Rel,
} from '@mikro-orm/core';
import { Project } from '../project/project.entity';
import { User } from '../user/user.entity';

export const JOIN_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type JoinStatus = (typeof JOIN_STATUSES)[number];

/**
 * A request to join an access group (legacy #75–#77). Only projects are joinable: approval
 * makes the requester a project member (contributor). At most one request per project and
 * requester is pending at a time.
 */
@ObjectType('JoinRequest', {
  description: 'A request to join a project, awaiting its lead or a project admin.',
})
@Entity({ tableName: 'join_request' })
@Index({ properties: ['project', 'id'] })
@Index({ properties: ['requester', 'id'] })
@Index({
  name: 'join_request_one_pending_idx',
  expression:
    "create unique index join_request_one_pending_idx on join_request (project_mfid, requester_id) where status = 'pending'",
})
export class JoinRequest {
  [OptionalProps]?: 'status' | 'requestTime';

  @Field(() => Int, { description: 'The request id.' })
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Project, { fieldName: 'project_mfid', deleteRule: 'cascade' })
  project!: Rel<Project>;

  @ManyToOne(() => User, { fieldName: 'requester_id', deleteRule: 'cascade' })
  requester!: Rel<User>;

  @Field(() => String, { nullable: true, description: 'Why the requester wants to join.' })
  @Property({ type: 'text', nullable: true })
  reason?: string | null;

  @Field(() => String, { description: 'pending, approved or rejected.' })
  @Enum({ items: () => JOIN_STATUSES, default: 'pending' })
  status: JoinStatus = 'pending';

  @Field({ description: 'When it was asked.' })
  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  requestTime: Date = new Date();

  @Field(() => String, { nullable: true, description: 'Who reviewed it.' })
  @Property({ length: 32, nullable: true })
  reviewerId?: string | null;

  @Field(() => String, { nullable: true, description: 'The reviewer notes.' })
  @Property({ type: 'text', nullable: true })
  reviewerNotes?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was reviewed.' })
  @Property({ type: 'timestamptz', nullable: true })
  reviewTime?: Date | null;
}
