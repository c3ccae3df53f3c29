import type { RequestContext } from '../../core/context';
import { forbidden } from '../../core/errors';
import type { AccessService } from '../access/access.service';
import { allows, type Action, type Permission } from '../access/permission';
import type { Project } from './project.entity';

export interface ProjectCapabilities {
  canRead: boolean;
  canUpdate: boolean;
  canManageMembers: boolean;
  canManageAccess: boolean;
  canTransferOwnership: boolean;
  canCreateDatasets: boolean;
}

/**
 * Projects are directory records: every authenticated caller may read a project's identity and
 * descriptive fields. Members hold the permission of their role on the project itself; the lead
 * owns it. Creating projects is for platform admins.
 */
export class ProjectPolicy {
  constructor(private readonly access: AccessService) {}

  async permission(ctx: RequestContext, project: Project): Promise<Permission | null> {
    const p = await this.access.effective(ctx, {
      uniqueId: project.uniqueId,
      type: 'project',
      ownerId: project.owner.uniqueId,
      projectMfid: project.uniqueId,
    });
    return p ?? 'viewer';
  }

  async assertCan(ctx: RequestContext, action: Action, project: Project): Promise<void> {
    if (!allows(await this.permission(ctx, project), action)) {
      throw forbidden(`You may not ${action} project ${project.projectId}`);
    }
  }

  /** Members and admins may see member-only fields (scientific metadata, the member list). */
  async isInsider(ctx: RequestContext, project: Project): Promise<boolean> {
    const scope = await ctx.scope();
    return scope.isPlatformAdmin || scope.projectRoles.has(project.uniqueId);
  }

  assertCanCreate(ctx: RequestContext): void {
    if (!ctx.isPlatformAdmin) throw forbidden('Only platform administrators may create projects');
  }

  async capabilities(ctx: RequestContext, project: Project): Promise<ProjectCapabilities> {
    const p = await this.permission(ctx, project);
    return {
      canRead: true,
      canUpdate: allows(p, 'update'),
      canManageMembers: allows(p, 'manage'),
      canManageAccess: allows(p, 'manage'),
      canTransferOwnership: allows(p, 'own'),
      canCreateDatasets: allows(p, 'contribute'),
    };
  }
}
