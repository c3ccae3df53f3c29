import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../core/context';
import { AppError, conflict, notFound, validationError } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import { isMfid } from '../../core/ids';
import { GRANTABLE_PERMISSIONS, isGrantable, type GrantablePermission } from '../permission/permission';
import type { User } from '../user/user.entity';
import type { UserService } from '../user/user.service';
import { Project } from './project.entity';
import type { ProjectMember } from './project-member.entity';
import type { ProjectPolicy } from './project.policy';
import type { ProjectService } from './project.service';
import type { Membership, ProjectLookup } from './project-lookup';
import { actorOf, type EventService } from '../outbox/event.service';

/** One identifier of a user (ORCID, MFID, username or email) and the input field that gave it. */
export type MemberId = [field: string, value: string];

/**
 * The user a membership operation names. `ids`: identifiers that must all name the same user
 * (404 when one names nobody, 422 naming the fields when they disagree: the `me` routes give
 * an email and a username); `field`: one input field (422 when it names nobody).
 */
export type MemberRef = { ids: [MemberId, ...MemberId[]] } | { field: string; value: unknown };

/** A project and its members, as a membership change answers them. */
export interface MemberList {
  project: Project;
  members: ProjectMember[];
}

export interface ProjectMemberDeps {
  users: UserService;
  projects: ProjectService;
  lookup: ProjectLookup;
  policy: ProjectPolicy;
  events: EventService;
}

/**
 * Project membership (spec 4.2; reference #70–#74). Members hold a role in a project: their
 * permission on the project and on every dataset and sample assigned to it. The lead is the
 * project's owner (admin implicitly), never a member row and never listed.
 *
 * Adding, changing and removing members needs `manage` on the project (`ProjectPolicy`): the
 * check runs in the transaction of the write, after locking the project's row, on what that
 * transaction sees (DESIGN §12). Concurrent adds meet at the unique constraint.
 */
export class ProjectMemberService {
  constructor(private readonly deps: ProjectMemberDeps) {}

  /** The members of a project (the lead is not one), oldest first, with their users. */
  async members(ctx: RequestContext, project: Project): Promise<ProjectMember[]> {
    ctx.loaders.projectMembers.clear(project.uniqueId);
    const all = await ctx.loaders.projectMembers.load(project.uniqueId);
    return all.filter((m) => m.user.uniqueId !== project.owner.uniqueId);
  }

  /** The member list of a project (MFID or slug) for whoever may see it (403 otherwise). */
  async list(ctx: RequestContext, projectId: string): Promise<ProjectMember[]> {
    const project = await this.deps.projects.get(ctx, projectId);
    await this.deps.policy.assertMayListMembers(ctx, project);
    return this.members(ctx, project);
  }

  /** The members for callers who may see them, null for the others (GraphQL `Project.members`). */
  async visible(ctx: RequestContext, project: Project): Promise<ProjectMember[] | null> {
    if (!(await this.deps.policy.mayListMembers(ctx, project))) return null;
    return this.members(ctx, project);
  }

  /**
   * Adds a member to a project (MFID or slug) with `role`, or changes their role; without a
   * role a new member is a contributor and a member keeps their role. A role for the lead is a
   * 409; adding the lead without one changes nothing.
   */
  async add(ctx: RequestContext, projectId: string, ref: MemberRef, role?: unknown): Promise<MemberList> {
    const project = await this.deps.projects.get(ctx, projectId);
    const user = await this.resolve(ctx, ref);
    if (role === undefined) await this.ensureMember(ctx, project, user);
    else await this.setMember(ctx, project, user, role);
    return { project, members: await this.members(ctx, project) };
  }

  /** Changes the role of a member; 404 when the user is not a member, 409 for the lead. */
  async changeRole(
    ctx: RequestContext,
    projectId: string,
    ref: MemberRef,
    role: unknown,
  ): Promise<MemberList> {
    const project = await this.deps.projects.get(ctx, projectId);
    const user = await this.resolve(ctx, ref);
    const checked = checkRole(role);
    await this.change(ctx, project.uniqueId, async (tx, locked) => {
      assertNotLead(locked, user);
      const rows = await rawQuery(
        tx,
        'update project_member set role = ? where project_mfid = ? and user_id = ? returning id',
        [checked, locked.uniqueId, user.uniqueId],
      );
      if (!rows.length) throw notFound(`Member of project ${locked.projectId}`, user.uniqueId);
    });
    return { project, members: await this.members(ctx, project) };
  }

  /** Removes a member; 409 for the lead (transfer the ownership first), 404 for non-members. */
  async remove(ctx: RequestContext, projectId: string, ref: MemberRef): Promise<MemberList> {
    const project = await this.deps.projects.get(ctx, projectId);
    await this.removeMember(ctx, project, await this.resolve(ctx, ref));
    return { project, members: await this.members(ctx, project) };
  }

  /**
   * Adds a member or changes their role. The lead holds admin implicitly and cannot be made a
   * member (409).
   */
  async setMember(ctx: RequestContext, project: Project, user: User, role: unknown): Promise<void> {
    const checked = checkRole(role);
    await this.change(ctx, project.uniqueId, async (tx, locked) => {
      assertNotLead(locked, user);
      await assertRoomForMember(tx, locked.uniqueId, user.uniqueId);
      await rawQuery(
        tx,
        `insert into project_member (project_mfid, user_id, role) values (?, ?, ?)
         on conflict (project_mfid, user_id) do update set role = excluded.role`,
        [locked.uniqueId, user.uniqueId, checked],
      );
    });
  }

  /** Makes `user` a member (contributor) unless they already hold a role there, the lead's included. */
  async ensureMember(ctx: RequestContext, project: Project, user: User): Promise<void> {
    await this.change(ctx, project.uniqueId, (tx, locked) => ensureContributor(tx, locked, user));
  }

  /**
   * `ensureMember` inside the caller's transaction (`inTx`, see `RequestContext.within`), for a
   * project given by MFID or slug (404 when there is none): creating a user with their projects
   * commits both or neither.
   */
  async ensureIn(inTx: RequestContext, projectId: string, user: User): Promise<void> {
    await this.changeIn(inTx, projectId, (tx, locked) => ensureContributor(tx, locked, user));
  }

  /** Removes a member; 409 for the lead, 404 for non-members. */
  async removeMember(ctx: RequestContext, project: Project, user: User): Promise<void> {
    await this.change(ctx, project.uniqueId, async (tx, locked) => {
      assertNotLead(locked, user);
      const rows = await rawQuery(
        tx,
        'delete from project_member where project_mfid = ? and user_id = ? returning id',
        [locked.uniqueId, user.uniqueId],
      );
      if (!rows.length) throw notFound(`Member of project ${locked.projectId}`, user.uniqueId);
    });
  }

  /**
   * Makes a user a contributor of a project unless they hold a role there, inside `em` (for
   * workflows that authorized the change themselves: approved join requests).
   */
  async ensureMemberIn(
    em: EntityManager,
    projectMfid: string,
    userId: string,
    actorId: string | null = null,
  ): Promise<void> {
    await rawQuery(em, `select 1 from project where unique_id = ? for no key update`, [projectMfid]);
    const [lead] = await rawQuery(em, `select 1 from project where unique_id = ? and owner_id = ?`, [
      projectMfid,
      userId,
    ]);
    if (!lead) await assertRoomForMember(em, projectMfid, userId);
    const added = await rawQuery(
      em,
      `insert into project_member (project_mfid, user_id, role)
       select ?, ?, 'contributor' where not exists (select 1 from project where unique_id = ? and owner_id = ?)
       on conflict (project_mfid, user_id) do nothing returning id`,
      [projectMfid, userId, projectMfid, userId],
    );
    if (added.length) {
      await this.emitMembers(em, actorId, projectMfid, [{ user_id: userId, from: null, to: 'contributor' }]);
    }
  }

  /** The projects a user belongs to, with their role; the projects they lead count as admin. */
  membershipsOf(ctx: RequestContext, user: User): Promise<Membership[]> {
    return this.deps.lookup.membershipsOf(ctx.em, user);
  }

  /** The projects of the user with this ORCID or MFID (404 when none): that user and platform admins. */
  async projectsOf(ctx: RequestContext, userId: string): Promise<Membership[]> {
    const user = await this.deps.users.require(ctx.em, userId);
    this.deps.users.policy.assertSelfOrAdmin(ctx, user, "list another user's projects");
    return this.membershipsOf(ctx, user);
  }

  /** Runs a checked membership change in its own transaction; the caller's scope is reloaded after. */
  private async change(
    ctx: RequestContext,
    projectMfid: string,
    write: (tx: EntityManager, project: Project) => Promise<void>,
  ): Promise<void> {
    await ctx.em.transactional((tx) => this.changeIn(ctx.within(tx), projectMfid, write));
    ctx.resetScope();
  }

  /** Locks the project's row, checks `manage` on it as the transaction sees it, then writes. */
  private async changeIn(
    inTx: RequestContext,
    projectId: string,
    write: (tx: EntityManager, project: Project) => Promise<void>,
  ): Promise<void> {
    const project = await inTx.em.findOne(
      Project,
      isMfid(projectId) ? { uniqueId: projectId } : { projectId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!project) throw notFound('Project', projectId);
    await this.deps.policy.assertCan(inTx, 'manage', project);
    const before = await this.roles(inTx.em, project.uniqueId);
    await write(inTx.em, project);
    const after = await this.roles(inTx.em, project.uniqueId);
    const changes = [...new Set([...before.keys(), ...after.keys()])]
      .filter((user) => before.get(user) !== after.get(user))
      .map((user) => ({ user_id: user, from: before.get(user) ?? null, to: after.get(user) ?? null }));
    if (changes.length) await this.emitMembers(inTx.em, actorOf(inTx), project.uniqueId, changes);
  }

  /** The members of a project and their roles, as `em` sees them. */
  private async roles(em: EntityManager, projectMfid: string): Promise<Map<string, string>> {
    const rows = await rawQuery<{ user_id: string; role: string }>(
      em,
      'select user_id, role from project_member where project_mfid = ?',
      [projectMfid],
    );
    return new Map(rows.map((r) => [r.user_id, r.role]));
  }

  /** One `project.members_changed` event: each change is a user's role before and after (null: none). */
  private async emitMembers(
    em: EntityManager,
    actorId: string | null,
    projectMfid: string,
    changes: { user_id: string; from: string | null; to: string | null }[],
  ): Promise<void> {
    await this.deps.events.emit(em, {
      type: 'project.members_changed',
      actorId,
      resourceId: projectMfid,
      resourceType: 'project',
      payload: { changes },
    });
  }

  private async resolve(ctx: RequestContext, ref: MemberRef): Promise<User> {
    if ('field' in ref) return this.deps.users.resolveField(ctx.em, ref.field, ref.value);
    const found: User[] = [];
    for (const [, value] of ref.ids) {
      const user = await this.deps.users.resolve(ctx.em, value);
      if (!user) throw notFound('User', value);
      found.push(user);
    }
    if (found.some((u) => u.uniqueId !== found[0].uniqueId)) {
      const fields = ref.ids.map(([field]) => field);
      throw new AppError(
        'VALIDATION',
        `${fields.join(' and ')} name different users`,
        fields.map((field) => ({
          field,
          message: `conflicts with ${fields.filter((f) => f !== field).join(' and ')}`,
        })),
      );
    }
    return found[0];
  }
}

/**
 * Members one project may have, and projects one user may belong to: both lists are read
 * whole (the members routes and fields, `me`, and every request's access scope), so both are
 * bounded.
 */
export const PROJECT_MAX_MEMBERS = 1000;
export const USER_MAX_PROJECTS = 1000;

/**
 * 409 when making `userId` a member of `projectMfid` would pass either cap; nothing to check
 * when they are a member already. Runs under the project's row lock (taken by the caller) and
 * a transaction lock on the user, so concurrent additions cannot pass the caps.
 */
async function assertRoomForMember(tx: EntityManager, projectMfid: string, userId: string): Promise<void> {
  await rawQuery(tx, `select pg_advisory_xact_lock(hashtext('project_member:' || ?))`, [userId]);
  const [row] = await rawQuery<{ member: boolean; members: number; projects: number }>(
    tx,
    `select exists (select 1 from project_member where project_mfid = ? and user_id = ?) as member,
       (select count(*)::int from project_member where project_mfid = ?) as members,
       (select count(*)::int from project_member where user_id = ?) as projects`,
    [projectMfid, userId, projectMfid, userId],
  );
  if (row.member) return;
  if (row.members >= PROJECT_MAX_MEMBERS) {
    throw conflict(
      `Project ${projectMfid} already has ${PROJECT_MAX_MEMBERS} members, the most a project may have`,
    );
  }
  if (row.projects >= USER_MAX_PROJECTS) {
    throw conflict(`${userId} already belongs to ${USER_MAX_PROJECTS} projects, the most a user may join`);
  }
}

async function ensureContributor(tx: EntityManager, project: Project, user: User): Promise<void> {
  if (project.owner.uniqueId === user.uniqueId) return;
  await assertRoomForMember(tx, project.uniqueId, user.uniqueId);
  await rawQuery(
    tx,
    `insert into project_member (project_mfid, user_id, role) values (?, ?, 'contributor')
     on conflict (project_mfid, user_id) do nothing`,
    [project.uniqueId, user.uniqueId],
  );
}

function assertNotLead(project: Project, user: User): void {
  if (project.owner.uniqueId === user.uniqueId) {
    throw conflict(
      `${user.uniqueId} leads project ${project.projectId} (admin implicitly); the lead changes only through POST /resources/${project.uniqueId}/transfer_ownership`,
    );
  }
}

function checkRole(role: unknown): GrantablePermission {
  if (!isGrantable(role)) throw validationError('role', `must be one of ${GRANTABLE_PERMISSIONS.join(', ')}`);
  return role;
}
