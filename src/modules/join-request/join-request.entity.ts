import { Field, ObjectType } from 'type-graphql';
import { Entity, Index, ManyToOne, type Rel } from '@mikro-orm/core';
import { Project } from '../project/project.entity';
import { User } from '../user/user.entity';
import {
  REVIEW_STATUSES,
  ReviewedRequest,
  type ReviewStatus,
} from '../reviewed-request/reviewed-request.entity';
import { Node } from '../../core/graphql/node';

export const JOIN_STATUSES = REVIEW_STATUSES;
export type JoinStatus = ReviewStatus;

/**
 * A request to join an access group (legacy #75–#77). Only projects are joinable: approval
 * makes the requester a project member (contributor). At most one request per project and
 * requester is pending at a time.
 */
@ObjectType('JoinRequest', {
  implements: Node,
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
export class JoinRequest extends ReviewedRequest {
  @ManyToOne(() => Project, { fieldName: 'project_mfid', deleteRule: 'cascade' })
  project!: Rel<Project>;

  @ManyToOne(() => User, { fieldName: 'requester_id', deleteRule: 'cascade' })
  requester!: Rel<User>;

  @Field(() => String, { nullable: true, description: 'Why the requester wants to join.' })
  override reason?: string | null;

  @Field(() => String, { nullable: true, description: 'Who reviewed it.' })
  override reviewerId?: string | null;
}
