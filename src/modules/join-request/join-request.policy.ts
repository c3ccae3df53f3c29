import type { RequestContext } from '../../core/context';
import { forbidden } from '../../core/errors';
import { allows } from '../permission/permission';
import type { Project } from '../project/project.entity';
import type { ProjectPolicy } from '../project/project.policy';

/**
 * Join requests: any caller may ask to join a project and list their own requests. The lead,
 * project admins (`manage` on the project) and platform admins list and review the requests of
 * a project; only platform admins list the requests of every project at once. Whether a
 * request may be made at all (not yet a member, none pending) is the service's state rule.
 */
export class JoinRequestPolicy {
  constructor(private readonly projects: ProjectPolicy) {}

  async mayReview(ctx: RequestContext, project: Project): Promise<boolean> {
    return allows(await this.projects.permission(ctx, project), 'manage');
  }

  /** Listing and reviewing the requests of one project. */
  async assertMayReview(ctx: RequestContext, project: Project): Promise<void> {
    if (await this.mayReview(ctx, project)) return;
    throw forbidden(`Only the lead and admins of ${project.projectId} may review its join requests`);
  }

  /** Listing the requests of every project (no group named). */
  assertMayListAll(ctx: RequestContext): void {
    if (ctx.isPlatformAdmin) return;
    throw forbidden(
      'Only platform administrators may list the join requests of every group: give group_name',
    );
  }
}
