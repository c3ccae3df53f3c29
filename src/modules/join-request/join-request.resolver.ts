import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { connectionTypes } from '../../core/graphql/connection';
import { OffsetPageArgs, offsetConnection, offsetOf } from '../../core/graphql/offset-page';
import { User } from '../user/user.entity';
import { ProjectRef } from '../project/project.types';
import { JoinRequest } from './join-request.entity';
import { isIntegerKey, nodeType } from '../../core/graphql/node';

const { Connection: JoinRequestConnection } = connectionTypes(
  'JoinRequest',
  JoinRequest,
  'A page of join requests, newest first.',
);

const STATUS = { nullable: true, description: 'pending, approved or rejected.' };

@Resolver(() => JoinRequest)
export class JoinRequestResolver {
  @Mutation(() => JoinRequest, {
    description: 'Asks to join a project (CONFLICT when you are a member or already asked).',
  })
  requestToJoinProject(
    @Arg('project', { description: 'Project slug or MFID.' }) project: string,
    @Arg('reason', () => String, { nullable: true, description: 'Why you want to join.' })
    reason: string | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.joinRequest.request(ctx, project, reason);
  }

  @Query(() => JoinRequestConnection, {
    description:
      'Join requests, newest first: of one project (its lead, project admins, platform admins) or of all (platform admins).',
  })
  async joinRequests(
    @Args() args: OffsetPageArgs,
    @Arg('project', () => String, { nullable: true, description: 'Project slug or MFID.' })
    project: string | undefined,
    @Arg('status', () => String, STATUS) status: string | undefined,
    @Arg('requesterId', () => String, { nullable: true, description: 'Only this requester.' })
    requesterId: string | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    const page = offsetOf(ctx, args);
    const result = await ctx.services.joinRequest.list(
      ctx,
      { groupName: project, status, requesterId },
      page,
    );
    return offsetConnection(JoinRequestConnection, result, page.offset);
  }

  @Query(() => JoinRequestConnection, { description: 'Your own join requests, newest first.' })
  async myJoinRequests(
    @Args() args: OffsetPageArgs,
    @Arg('status', () => String, STATUS) status: string | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    const page = offsetOf(ctx, args);
    return offsetConnection(
      JoinRequestConnection,
      await ctx.services.joinRequest.mine(ctx, status, page),
      page.offset,
    );
  }

  @Mutation(() => JoinRequest, {
    description: 'Approves (the requester becomes a contributor) or rejects a pending join request.',
  })
  reviewJoinRequest(
    @Arg('id', () => Int, { description: 'The request id.' }) id: number,
    @Arg('approve', { description: 'true approves, false rejects.' }) approve: boolean,
    @Arg('reviewerNotes', () => String, { nullable: true, description: 'Notes for the requester.' })
    reviewerNotes: string | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.joinRequest.review(ctx, id, approve ? 'approved' : 'rejected', reviewerNotes);
  }

  @FieldResolver(() => ProjectRef, { description: 'The project to join.' })
  async project(@Root() r: JoinRequest, @Ctx() ctx: RequestContext): Promise<ProjectRef> {
    const p = await ctx.loaders.project.load(r.project.uniqueId);
    return { uniqueId: r.project.uniqueId, projectId: p?.projectId ?? '', title: p?.title ?? null };
  }

  @FieldResolver(() => ID, { description: 'Who asked (ORCID or MFID).' })
  requesterId(@Root() r: JoinRequest): string {
    return r.requester.uniqueId;
  }

  @FieldResolver(() => User, { nullable: true, description: 'Who asked, public-safe.' })
  requester(@Root() r: JoinRequest, @Ctx() ctx: RequestContext) {
    return ctx.loaders.user.load(r.requester.uniqueId);
  }
}

/** Join requests as `Node`s: fetched again by global id, as their single-record reads see them. */
export const JOIN_REQUEST_NODE = nodeType<JoinRequest>(
  'JoinRequest',
  (key) => isIntegerKey(key),
  (r) => String(r.id),
  (ctx, keys) => ctx.services.joinRequest.readable(ctx, keys.map(Number)),
);
