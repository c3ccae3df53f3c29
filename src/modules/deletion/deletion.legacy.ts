import { NullableString, Type } from '../../core/rest/schema';
import { REVIEW } from '../reviewed-request/reviewed-request.legacy';
import { iso } from '../../core/rest/wire';
import type { RequestContext } from '../../core/context';
import { toPublicUser } from '../user/user.legacy';
import { toLegacyReview } from '../reviewed-request/reviewed-request.legacy';
import type { DeletionRequest } from './deletion-request.entity';
import type { DeletionAudit } from './deletion-audit.entity';

/** The plain fields of a deletion request (as a record's `deletion_request` embeds it). */
export function deletionRequestFields(r: DeletionRequest): Record<string, unknown> {
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

/** A user id as the 3.2 client reads it: the public-safe user record, null when unknown. */
async function person(
  ctx: RequestContext,
  id: string | null | undefined,
): Promise<Record<string, unknown> | null> {
  const user = id ? await ctx.loaders.user.load(id) : null;
  return user ? toPublicUser(ctx, user) : null;
}

/**
 * The REST shape of a deletion request (integer id). `/api/v3` adds what the 3.2 client reads:
 * `project_mfid`, the `requester` and `reviewer` as public-safe user records, and
 * `capabilities.can_review` (the caller may approve or reject it now).
 */
export async function toLegacyDeletionRequest(
  ctx: RequestContext,
  r: DeletionRequest,
): Promise<Record<string, unknown>> {
  const out = deletionRequestFields(r);
  if (ctx.wireVersion < 3) return out;
  return {
    ...out,
    project_mfid: r.projectMfid ?? null,
    requester: await person(ctx, r.requesterId),
    reviewer: await person(ctx, r.reviewerId),
    capabilities: { can_review: r.status === 'pending' && ctx.services.deletion.mayReview(ctx) },
  };
}

/** The REST shape of a deletion audit entry (integer id); `/api/v3` adds `project_mfid`, `requester`, `reviewer`. */
export async function toLegacyDeletionAudit(
  ctx: RequestContext,
  a: DeletionAudit,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {
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
  if (ctx.wireVersion < 3) return out;
  return {
    ...out,
    project_mfid: a.projectMfid ?? null,
    requester: await person(ctx, a.requesterId),
    reviewer: await person(ctx, a.reviewerId),
  };
}

const nullable = NullableString();
const nullableObject = Type.Union([Type.Object({}), Type.Null()]);
/** the keys `/api/v3` adds (the 3.2 client's `DeletionRequest` and `DeletionAuditLog`) */
const V3_KEYS = {
  project_mfid: Type.Optional(NullableString({ description: "/api/v3: the project's MFID when requested" })),
  requester: Type.Optional(nullableObject),
  reviewer: Type.Optional(nullableObject),
};
export const DELETION_REQUEST = Type.Object(
  {
    id: Type.Integer(),
    resource_id: Type.String(),
    resource_type: Type.String(),
    resource_name: nullable,
    project_id: nullable,
    requester_id: Type.String(),
    ...REVIEW,
    ...V3_KEYS,
    capabilities: Type.Optional(
      Type.Object(
        { can_review: Type.Boolean() },
        { description: '/api/v3: whether you may approve or reject it now' },
      ),
    ),
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
    ...V3_KEYS,
  },
  { title: 'DeletionAudit' },
);
