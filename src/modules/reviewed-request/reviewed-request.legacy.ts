import { NullableString, Type } from '../../core/rest/schema';
import { iso } from '../../core/rest/wire';
import type { ReviewedRequest } from './reviewed-request.entity';

/** The review keys of a deletion or join request on the legacy wire. */
export function toLegacyReview(r: ReviewedRequest): Record<string, unknown> {
  return {
    reason: r.reason ?? null,
    status: r.status,
    request_time: iso(r.requestTime),
    review_time: iso(r.reviewTime),
    reviewer_id: r.reviewerId ?? null,
    reviewer_notes: r.reviewerNotes ?? null,
  };
}

const nullable = NullableString();
/** The review keys of a deletion or join request. */
export const REVIEW = {
  reason: nullable,
  status: Type.String(),
  request_time: Type.String({ format: 'date-time' }),
  review_time: nullable,
  reviewer_id: nullable,
  reviewer_notes: nullable,
};
