import type { CallerKey, RequestContext } from '../../core/context';
import type { User } from '../user/user.entity';
import type { Project } from '../project/project.entity';
import type { ProjectMemberService } from '../project/project-member.service';
import type { GrantablePermission } from '../permission/permission';
import type { AccessGroupService } from '../access/access-group.service';

export interface Whoami {
  user: User;
  apiKey: CallerKey;
  /** legacy access-group names: the user's own id, the slugs of their projects, their named groups */
  accessGroups: string[];
  projects: { project: Project; role: GrantablePermission }[];
}

/** The caller's own account: the full authentication context of the current API key. */
export class AccountService {
  constructor(
    private readonly members: ProjectMemberService,
    private readonly groups: AccessGroupService,
  ) {}

  async whoami(ctx: RequestContext): Promise<Whoami> {
    const { user, apiKey } = ctx.caller;
    const [projects, named] = await Promise.all([
      this.members.membershipsOf(ctx, user),
      this.groups.namedGroupsOf(ctx.em, user.uniqueId),
    ]);
    return {
      user,
      apiKey,
      accessGroups: [user.uniqueId, ...projects.map((p) => p.project.projectId), ...named],
      projects,
    };
  }
}
