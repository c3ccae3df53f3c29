import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { notFound, validationError } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import { isMfid, isOrcid } from '../../core/ids';
import type { User } from '../user/user.entity';
import type { UserService } from '../user/user.service';
import type { ProjectService } from '../project/project.service';
import type { ProjectMemberService } from '../project/project-member.service';
import { AccessGroup } from './access-group.entity';

const GROUP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{1,99}$/;

/**
 * Legacy access groups (reference 5.9, 5.13 #95–#97) mapped onto the one access model. A
 * group name is a project slug (membership of the project), a user's own id, or a named access
 * group (its own membership table; grants name it as principal type `group`). Grants to named
 * groups reach their members through the access scope.
 */
export class AccessGroupService {
  constructor(
    private readonly deps: { users: UserService; projects: ProjectService; members: ProjectMemberService },
  ) {}

  /** A named access group, or null. */
  find(em: EntityManager, name: string): Promise<AccessGroup | null> {
    return em.findOne(AccessGroup, { name });
  }

  /** The named groups a user belongs to, by name. */
  async namedGroupsOf(em: EntityManager, userId: string): Promise<string[]> {
    const rows = await rawQuery<{ name: string }>(
      em,
      `select g.name from access_group_member m join access_group g on g.id = m.group_id
       where m.user_id = ? order by g.name`,
      [userId],
    );
    return rows.map((r) => r.name);
  }

  /**
   * Every group name of a user: their own id, the slugs of the projects they hold a role in,
   * and their named groups. Yourself or platform admins.
   */
  async namesOf(ctx: RequestContext, user: User): Promise<string[]> {
    this.deps.users.policy.assertSelfOrAdmin(ctx, user, "list another user's access groups");
    const [projects, named] = await Promise.all([
      this.deps.members.membershipsOf(ctx, user),
      this.namedGroupsOf(ctx.em, user.uniqueId),
    ]);
    return [user.uniqueId, ...projects.map((p) => p.project.projectId), ...named];
  }

  /**
   * Adds a user to a group (platform admins): a project slug makes them a project member
   * (contributor, unless they hold a role already); another name adds them to that named group,
   * creating it on first use.
   */
  async add(ctx: RequestContext, user: User, name: string): Promise<void> {
    this.deps.users.policy.assertPlatformAdmin(ctx, 'change access groups');
    const project = await this.deps.projects.find(ctx.em, name);
    if (project) {
      await this.deps.members.ensureMember(ctx, project, user);
      return;
    }
    const groupName = checkGroupName(name);
    await rawQuery(ctx.em, 'insert into access_group (name) values (?) on conflict (name) do nothing', [
      groupName,
    ]);
    await rawQuery(
      ctx.em,
      `insert into access_group_member (group_id, user_id) select id, ? from access_group where name = ?
       on conflict (group_id, user_id) do nothing`,
      [user.uniqueId, groupName],
    );
    ctx.resetScope();
  }

  /** Removes a user from a group (platform admins); 404 when they are not in it. */
  async remove(ctx: RequestContext, user: User, name: string): Promise<void> {
    this.deps.users.policy.assertPlatformAdmin(ctx, 'change access groups');
    const project = await this.deps.projects.find(ctx.em, name);
    if (project) {
      await this.deps.members.removeMember(ctx, project, user);
      return;
    }
    const rows = await rawQuery(
      ctx.em,
      `delete from access_group_member m using access_group g
       where g.id = m.group_id and g.name = ? and m.user_id = ? returning m.id`,
      [name, user.uniqueId],
    );
    if (!rows.length) throw notFound(`Member of access group ${name}`, user.uniqueId);
    ctx.resetScope();
  }
}

function checkGroupName(name: string): string {
  if (isOrcid(name) || isMfid(name)) {
    throw validationError('group_name', "a user's own id is their personal group: it takes no members");
  }
  if (!GROUP_NAME.test(name)) {
    throw validationError('group_name', 'must be 2-100 letters, digits, ".", "_" or "-" (or a project slug)');
  }
  return name;
}
