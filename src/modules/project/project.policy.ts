import type { RequestContext } from '../../core/context';
import { forbidden } from '../../core/errors';
import { inList, type Sql } from '../../core/db/sql';
import type { AccessService, AccessSubject } from '../permission/access.service';
import { DirectoryRecordPolicy, type DirectoryCapabilities } from '../permission/directory-record.policy';
import { allows } from '../permission/permission';
import { assertRoleCreates } from '../permission/platform';
import type { Project } from './project.entity';
import type { User } from '../user/user.entity';

export interface ProjectCapabilities extends DirectoryCapabilities {
  canManageMembers: boolean;
  canCreateDatasets: boolean;
}

/**
 * Projects are directory records: every authenticated caller may read a project's identity and
 * descriptive fields. Members hold the permission of their role on the project itself; the lead
 * owns it. Creating projects is for platform admins.
 */
export class ProjectPolicy extends DirectoryRecordPolicy<Project> {
  constructor(access: AccessService) {
    super(access, 'Only platform administrators may create projects', 'project');
  }

  /** Members hold their role on the project itself; the lead owns it. */
  subject(project: Project): AccessSubject {
    return {
      uniqueId: project.uniqueId,
      type: 'project',
      ownerId: project.owner.uniqueId,
      projectMfid: project.uniqueId,
    };
  }

  protected describe(project: Project): string {
    return `project ${project.projectId}`;
  }

  /** Members and admins may see member-only fields (scientific metadata, the member list). */
  async isInsider(ctx: RequestContext, project: Project): Promise<boolean> {
    const scope = await ctx.scope();
    return scope.isPlatformAdmin || scope.projectRoles.has(project.uniqueId);
  }

  /**
   * Narrowing a collection to what is assigned or granted to a project (`accessible_to_project`)
   * needs to be an insider of it.
   */
  async assertMayInspect(ctx: RequestContext, project: Project): Promise<void> {
    if (!(await this.isInsider(ctx, project))) {
      throw forbidden(`Inspecting project ${project.projectId} needs membership of it`);
    }
  }

  /** The scientific metadata of a project is for its insiders. */
  mayReadMetadata(ctx: RequestContext, project: Project): Promise<boolean> {
    return this.isInsider(ctx, project);
  }

  async assertMayReadMetadata(ctx: RequestContext, project: Project): Promise<void> {
    if (!(await this.mayReadMetadata(ctx, project))) {
      throw forbidden('The scientific metadata of a project is visible to its members only');
    }
  }

  /** The member list: insiders, and whoever may manage the members (a project admin grant). */
  async mayListMembers(ctx: RequestContext, project: Project): Promise<boolean> {
    return (await this.isInsider(ctx, project)) || allows(await this.permission(ctx, project), 'manage');
  }

  async assertMayListMembers(ctx: RequestContext, project: Project): Promise<void> {
    if (!(await this.mayListMembers(ctx, project))) {
      throw forbidden(`The members of project ${project.projectId} are visible to its members only`);
    }
  }

  /**
   * Creating a record (dataset, sample) in a project needs contributor there; naming another
   * owner needs platform admin, a service account, or admin on the project.
   */
  async assertMayCreateIn(
    ctx: RequestContext,
    project: Project | null,
    owner: User,
    what: string,
  ): Promise<void> {
    assertRoleCreates(ctx, what === 'samples' ? 'sample' : 'dataset');
    const projectPermission = project ? await this.permission(ctx, project) : null;
    if (project && !allows(projectPermission, 'contribute')) {
      throw forbidden(`You may not create ${what} in project ${project.projectId}`);
    }
    if (owner.uniqueId === ctx.userId) return;
    if (
      ctx.isPlatformAdmin ||
      ctx.caller.user.isServiceAccount ||
      (project && allows(projectPermission, 'manage'))
    )
      return;
    throw forbidden(
      `Only platform admins, service accounts and project admins may create ${what} for another owner`,
    );
  }

  /** The condition keeping the projects (rows of `project <alias>`) the caller is an insider of (null: all). */
  async insiderWhere(ctx: RequestContext, alias: string): Promise<Sql | null> {
    const scope = await ctx.scope();
    return scope.isPlatformAdmin ? null : inList(`${alias}.unique_id`, [...scope.projectRoles.keys()]);
  }

  async capabilities(ctx: RequestContext, project: Project): Promise<ProjectCapabilities> {
    const p = await this.permission(ctx, project);
    return {
      ...this.directoryCapabilities(p),
      canManageMembers: allows(p, 'manage'),
      canCreateDatasets: allows(p, 'contribute'),
    };
  }
}
