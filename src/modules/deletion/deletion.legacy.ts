import { NullableString, Type } from '../../core/rest/schema';
import { REVIEW } from '../reviewed-request/reviewed-request.legacy';
import { iso } from '../../core/rest/wire';
import { toLegacyReview } from '../reviewed-request/reviewed-request.legacy';
import type { DeletionRequest } from './deletion-request.entity';
import type { DeletionAudit } from './deletion-audit.entity';

/** The legacy REST shape of a deletion request (integer id). */
export function toLegacyDeletionRequest(r: DeletionRequest): Record<string, unknown> {
  return {
    id: r.id,
    resource_id: r.resourceId,
    resource_type: r.resourceType,
    resource_name: r.resourceName ?? null,
    project_id: r.projectId ?? null,
    requester_id: r.requesterId,
    ...toLegacyReview(r),
  };
}

/** The legacy REST shape of a deletion audit entry (integer id). */
export function toLegacyDeletionAudit(a: DeletionAudit): Record<string, unknown> {
  return {
    id: a.id,
    request_id: a.requestId ?? null,
    resource_id: a.resourceId,
    resource_type: a.resourceType,
    resource_name: a.resourceName ?? null,
    project_id: a.projectId ?? null,
    requester_id: a.requesterId ?? null,
    reason: a.reason ?? null,
    request_time: iso(a.requestTime),
    reviewer_id: a.reviewerId,
    reviewer_notes: a.reviewerNotes ?? null,
    review_time: iso(a.reviewTime),
    deleted_at: iso(a.deletedAt),
  };
}

const nullable = NullableString();
export const DELETION_REQUEST = Type.Object(
  {
    id: Type.Integer(),
    resource_id: Type.String(),
    resource_type: Type.String(),
    resource_name: nullable,
    project_id: nullable,
    requester_id: Type.String(),
    ...REVIEW,
  },
  { title: 'DeletionRequest' },
);
export const DELETION_AUDIT = Type.Object(
  {
    id: Type.Integer(),
    request_id: Type.Union([Type.Integer(), Type.Null()]),
    resource_id: Type.String(),
    resource_type: Type.String(),
    resource_name: nullable,
    project_id: nullable,
    requester_id: nullable,
    reason: nullable,
    request_time: nullable,
    reviewer_id: nullable,
    reviewer_notes: nullable,
    review_time: nullable,
    deleted_at: Type.String({ format: 'date-time' }),
  },
  { title: 'DeletionAudit' },
);
