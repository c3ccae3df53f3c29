import type { RequestContext } from '../../core/context';
import type { JoinRequest } from './join-request.entity';

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** The legacy JoinRequest (reference §4): integer id; the group is the project slug. */
export async function toLegacyJoinRequest(
  ctx: RequestContext,
  r: JoinRequest,
): Promise<Record<string, unknown>> {
  const project = await ctx.loaders.project.load(r.project.uniqueId);
  return {
    id: r.id,
    group_name: project?.projectId ?? null,
    project_mfid: r.project.uniqueId,
    requester_id: r.requester.uniqueId,
    reason: r.reason ?? null,
    status: r.status,
    request_time: iso(r.requestTime),
    review_time: iso(r.reviewTime),
    reviewer_id: r.reviewerId ?? null,
    reviewer_notes: r.reviewerNotes ?? null,
  };
}
