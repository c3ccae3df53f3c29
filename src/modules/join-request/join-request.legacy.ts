import { NullableString, Type } from '../../core/rest/schema';
import { REVIEW } from '../reviewed-request/reviewed-request.legacy';
import type { RequestContext } from '../../core/context';
import { toLegacyReview } from '../reviewed-request/reviewed-request.legacy';
import type { JoinRequest } from './join-request.entity';

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
    ...toLegacyReview(r),
  };
}

export const JOIN_REQUEST = Type.Object(
  {
    id: Type.Integer(),
    group_name: NullableString({ description: 'the project slug' }),
    project_mfid: Type.String(),
    requester_id: Type.String(),
    ...REVIEW,
  },
  { title: 'JoinRequest' },
);
