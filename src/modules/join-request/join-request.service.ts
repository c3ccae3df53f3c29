import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { RequestContext } from '../../core/context';
import { conflict, notFound, validationError } from '../../core/errors';
import { uniquely } from '../../core/db/unique';
import { optionalText, parseIntegerId } from '../../core/input';
import type { OffsetPage } from '../../core/db/page';
import { offsetFind } from '../../core/db/keyset';
import type { ProjectService } from '../project/project.service';
import type { ProjectMemberService } from '../project/project-member.service';
import { User } from '../user/user.entity';
import { JoinRequest, JOIN_STATUSES, type JoinStatus } from './join-request.entity';
import type { JoinRequestPolicy } from './join-request.policy';

export interface JoinRequestFilter {
  /** the project slug (or MFID) of the group */
  groupName?: string;
  status?: string;
  requesterId?: string;
}

/**
 * Join requests (legacy #10, #75–#77): a user asks to join a project; its lead, a project admin
 * or a platform admin approves (the requester becomes a contributor) or rejects (who may:
 * `JoinRequestPolicy`). Requests are listed newest first.
 */
export class JoinRequestService {
  constructor(
    private readonly deps: {
      projects: ProjectService;
      members: ProjectMemberService;
      policy: JoinRequestPolicy;
    },
  ) {}

  /** Asks to join a project; 404 for an unknown group, 409 for members and pending requests. */
  async request(ctx: RequestContext, groupName: string, reason: unknown): Promise<JoinRequest> {
    const text = optionalText(reason, 'reason');
    const project = await this.deps.projects.find(ctx.em, groupName);
    if (!project) throw notFound('Access group', groupName);
    const memberships = await this.deps.members.membershipsOf(ctx, ctx.caller.user);
    if (memberships.some((m) => m.project.uniqueId === project.uniqueId)) {
      throw conflict(`You are already a member of ${project.projectId}`);
    }
    const request = ctx.em.create(JoinRequest, {
      project,
      requester: ctx.em.getReference(User, ctx.userId),
      reason: text,
    });
    await uniquely(() => ctx.em.flush(), `You already have a pending request to join ${project.projectId}`);
    return request;
  }

  /**
   * Requests of one group (its lead, project admins and platform admins) or of every group
   * (platform admins only); 403 otherwise.
   */
  async list(
    ctx: RequestContext,
    filter: JoinRequestFilter,
    page: { limit: number; offset: number },
  ): Promise<OffsetPage<JoinRequest>> {
    const where: FilterQuery<JoinRequest> = {};
    if (filter.groupName !== undefined) {
      const project = await this.deps.projects.find(ctx.em, filter.groupName);
      if (!project) throw notFound('Access group', filter.groupName);
      await this.deps.policy.assertMayReview(ctx, project);
      where.project = project;
    } else {
      this.deps.policy.assertMayListAll(ctx);
    }
    const status = parseJoinStatus(filter.status);
    if (status) where.status = status;
    if (filter.requesterId) where.requester = filter.requesterId;
    return this.page(ctx, where, page);
  }

  /**
   * The requests of these ids the caller may see: their own, and those of projects they may
   * review (as `list`); the requests in one statement, the permission on another's project
   * asked once per project.
   */
  async readable(ctx: RequestContext, ids: readonly number[]): Promise<JoinRequest[]> {
    if (!ids.length) return [];
    const found = await ctx.em.find(
      JoinRequest,
      { id: { $in: [...ids] } },
      { populate: ['project'], strategy: 'joined' },
    );
    const seen = await Promise.all(
      found.map(
        async (r) =>
          r.requester.uniqueId === ctx.userId ||
          ctx.isPlatformAdmin ||
          (await this.deps.policy.mayReview(ctx, r.project)),
      ),
    );
    return found.filter((_, i) => seen[i]);
  }

  /** The caller's own requests. */
  mine(ctx: RequestContext, status: string | undefined, page: { limit: number; offset: number }) {
    const where: FilterQuery<JoinRequest> = { requester: ctx.userId };
    const parsed = parseJoinStatus(status);
    if (parsed) where.status = parsed;
    return this.page(ctx, where, page);
  }

  /**
   * Approves (adding the requester as a contributor) or rejects a pending request; 409 once
   * reviewed. The reviewer check, the review and the membership share one transaction holding
   * the request's row lock.
   */
  async review(
    ctx: RequestContext,
    rawId: unknown,
    rawStatus: unknown,
    notes: unknown,
  ): Promise<JoinRequest> {
    const id = parseIntegerId(rawId);
    if (rawStatus !== 'approved' && rawStatus !== 'rejected') {
      throw validationError('status', 'must be approved or rejected');
    }
    const reviewerNotes = optionalText(notes, 'reviewer_notes');
    const reviewed = await ctx.em.transactional(async (tx) => {
      const request = await tx.findOne(
        JoinRequest,
        { id },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!request) throw notFound('Join request', String(id));
      const project = await this.deps.projects.find(tx, request.project.uniqueId);
      if (!project) throw notFound('Join request', String(id));
      await this.deps.policy.assertMayReview(ctx.within(tx), project);
      if (request.status !== 'pending') throw conflict(`join request ${id} was already ${request.status}`);
      Object.assign(request, {
        status: rawStatus,
        reviewerId: ctx.userId,
        reviewerNotes,
        reviewTime: new Date(),
      });
      await tx.flush();
      if (rawStatus === 'approved') {
        await this.deps.members.ensureMemberIn(tx, project.uniqueId, request.requester.uniqueId, ctx.userId);
      }
      return request;
    });
    if (reviewed.requester.uniqueId === ctx.userId) ctx.resetScope();
    return ctx.em.findOneOrFail(JoinRequest, { id }, { populate: ['project'], refresh: true });
  }

  private page(
    ctx: RequestContext,
    where: FilterQuery<JoinRequest>,
    page: { limit: number; offset: number },
  ): Promise<OffsetPage<JoinRequest>> {
    return offsetFind(ctx.em, JoinRequest, where, { id: 'desc' }, page, ['project']);
  }
}

function parseJoinStatus(raw: string | undefined): JoinStatus | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!(JOIN_STATUSES as readonly string[]).includes(raw)) {
    throw validationError('status', 'must be pending, approved or rejected');
  }
  return raw as JoinStatus;
}
