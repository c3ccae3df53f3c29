import { Field, ObjectType } from 'type-graphql';
import { Entity, Enum, Index, Property } from '@mikro-orm/core';
import {
  REVIEW_STATUSES,
  ReviewedRequest,
  type ReviewStatus,
} from '../reviewed-request/reviewed-request.entity';
import { DELETABLE_TYPES, type DeletableType } from '../removal/removal';
import { Node } from '../../core/graphql/node';

export const DELETION_STATUSES = REVIEW_STATUSES;
export type DeletionStatus = ReviewStatus;

/**
 * A request to delete a resource permanently, awaiting a platform admin's review. At most one
 * request per resource is pending at a time. Rows outlive the resource (no foreign key), so the
 * resource's display fields are copied in.
 */
@ObjectType('DeletionRequest', {
  implements: Node,
  description: 'A request to delete a dataset or sample, awaiting an admin.',
})
@Entity({ tableName: 'deletion_request' })
@Index({ properties: ['resourceId'] })
@Index({ properties: ['status', 'id'] })
@Index({
  name: 'deletion_request_one_pending_idx',
  expression:
    "create unique index deletion_request_one_pending_idx on deletion_request (resource_id) where status = 'pending'",
})
export class DeletionRequest extends ReviewedRequest {
  @Field({ description: 'The MFID of the resource.' })
  @Property({ length: 26 })
  resourceId!: string;

  @Field(() => String, { description: 'dataset or sample.' })
  @Enum({ items: () => DELETABLE_TYPES })
  resourceType!: DeletableType;

  @Field(() => String, { nullable: true, description: 'Its name when requested.' })
  @Property({ length: 500, nullable: true })
  resourceName?: string | null;

  /** the slug of the resource's project at request time */
  @Field(() => String, { nullable: true, description: 'Its project slug when requested.' })
  @Property({ length: 100, nullable: true })
  projectId?: string | null;

  /** the MFID of the resource's project at request time */
  @Field(() => String, { nullable: true, description: 'Its project MFID when requested.' })
  @Property({ length: 26, nullable: true })
  projectMfid?: string | null;

  @Field({ description: 'Who asked (ORCID or MFID).' })
  @Property({ length: 32 })
  requesterId!: string;

  @Field(() => String, { nullable: true, description: 'Why.' })
  override reason?: string | null;

  @Field(() => String, { nullable: true, description: 'The admin who reviewed it.' })
  override reviewerId?: string | null;
}
