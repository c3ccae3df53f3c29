import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { conflict, notFound, validationError } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import { isMfid, isOrcid } from '../../core/ids';
import type { User } from '../user/user.entity';
import type { UserService } from '../user/user.service';
import type { Project } from '../project/project.entity';
import type { ProjectService } from '../project/project.service';
import { subjectOfRow, type AnyResource, type ResourceService } from '../resource/resource.service';
import type { PrincipalType, ResourceType } from '../permission/permission';
import type { AccessGroupService } from './access-group.service';
import type { GrantPolicy } from './grant.policy';
import { principalGrantsManyIn, setGrantsManyIn } from './grant-many';
import { actorOf, type EventService } from '../outbox/event.service';
import { PERMISSIONS, type GrantablePermission, type Permission } from '../permission/permission';

/**
 * Grants one resource may hold: its grant list is read whole (REST and GraphQL), so it is
 * bounded. Wider sharing goes through a project or a named group (one grant each).
 */
export const RESOURCE_MAX_GRANTS = 100;

/** 409 when a new principal would take the resource past RESOURCE_MAX_GRANTS (under its row lock). */
async function assertRoomForGrant(
  tx: EntityManager,
  resourceId: string,
  principal: Principal,
): Promise<void> {
  const [row] = await rawQuery<{ others: number }>(
    tx,
    `select count(*)::int as others from access_grant
     where resource_id = ? and not (principal_type = ? and principal_id = ?)`,
    [resourceId, principal.type, principal.id],
  );
  if (row.others >= RESOURCE_MAX_GRANTS) {
    throw conflict(
      `${resourceId} already has ${RESOURCE_MAX_GRANTS} grants, the most a resource may hold: grant to a project or a named group instead`,
    );
  }
}

/** The `{kind}` path segment of the access routes, and the principal type it names. */
export const GRANT_KINDS: Record<string, PrincipalType> = {
  users: 'user',
  projects: 'project',
  groups: 'group',
};

/** Who a grant is given to, resolved to its canonical id. */
export interface Principal {
  type: PrincipalType;
  /** user unique_id, project MFID, or group name */
  id: string;
  /** username, project slug, or group name */
  name: string | null;
  user?: User;
  project?: Project;
}

/** One grant as the access routes show it. */
export interface GrantView {
  resourceId: string;
  resourceType: ResourceType;
  principal: Principal;
  permission: GrantablePermission;
  grantedBy: string | null;
  creationTime: Date;
}

/** The access listing of one resource. */
export interface AccessListing {
  resource: AnyResource;
  ownerId: string;
  /** null for projects, which have no public flag */
  public: boolean | null;
  /** the caller's own effective permission */
  effective: Permission | null;
  grants: GrantView[];
  /** whether `grants` is the full list (callers with manage) or only the grants naming the caller */
  complete: boolean;
}

interface GrantRow {
  resource_id: string;
  resource_type: ResourceType;
  principal_type: PrincipalType;
  principal_id: string;
  permission: GrantablePermission;
  granted_by: string | null;
  creation_time: Date | string;
}

/**
 * Access grants on datasets, samples, projects and instruments (spec 4.1): list, grant and
 * revoke, for users, projects and named groups. Granting and revoking needs `manage` on the
 * resource; `owner` is never granted here (409: ownership moves only through the transfer
 * workflow). Any reader may list: they see their own effective access, and the full grant list
 * when they may manage it (otherwise only the grants that reach them: `GrantPolicy`).
 */
export class GrantService {
  constructor(
    private readonly deps: {
      resources: ResourceService;
      users: UserService;
      projects: ProjectService;
      groups: AccessGroupService;
      policy: GrantPolicy;
      events: EventService;
    },
  ) {}

  async list(ctx: RequestContext, resourceId: string): Promise<AccessListing> {
    const r = await this.deps.resources.find(ctx, resourceId);
    const effective = await this.deps.resources.permission(ctx, r);
    const subject = this.deps.resources.subject(r);
    const { complete, rows } = await this.deps.policy.visibleGrants(
      ctx,
      effective,
      await this.rowsOf(ctx.em, r.uniqueId),
    );
    return {
      resource: r,
      ownerId: subject.ownerId,
      public: r.type === 'project' ? null : (subject.public ?? false),
      effective,
      grants: await Promise.all(rows.map((row) => this.view(ctx, row))),
      complete,
    };
  }

  /** The full grant list of a resource the caller may manage (legacy access groups). */
  async managedGrants(ctx: RequestContext, resourceId: string): Promise<GrantView[]> {
    const r = await this.deps.resources.find(ctx, resourceId);
    await this.deps.resources.assertCan(ctx, 'manage', r);
    return Promise.all((await this.rowsOf(ctx.em, r.uniqueId)).map((row) => this.view(ctx, row)));
  }

  /** Grants `permission` to a principal (creating or changing the grant); needs `manage`. */
  async set(
    ctx: RequestContext,
    resourceId: string,
    kind: string,
    principal: string,
    permission: unknown,
  ): Promise<GrantView> {
    const type = parseKind(kind);
    const level = parsePermission(permission, resourceId);
    const r = await this.deps.resources.find(ctx, resourceId);
    await this.deps.resources.assertCan(ctx, 'manage', r);
    return this.grant(ctx, r, await this.principal(ctx.em, type, principal), level);
  }

  /**
   * The legacy form (reference #61): a group name (project slug, user id or named group) with
   * read/write flags; write gives contributor, otherwise viewer.
   */
  async setGroup(
    ctx: RequestContext,
    resourceId: string,
    groupName: string,
    write: boolean,
  ): Promise<GrantView> {
    if (!groupName) throw validationError('group_name', 'is required');
    const r = await this.deps.resources.find(ctx, resourceId);
    await this.deps.resources.assertCan(ctx, 'manage', r);
    const principal = await this.groupPrincipal(ctx.em, groupName);
    return this.grant(ctx, r, principal, write ? 'contributor' : 'viewer');
  }

  /** Revokes the grant of a principal; 404 when there is none. */
  async revoke(
    ctx: RequestContext,
    resourceId: string,
    kind: string,
    principal: string,
  ): Promise<{ resource: AnyResource; principal: Principal }> {
    const type = parseKind(kind);
    const r = await this.deps.resources.find(ctx, resourceId);
    await this.deps.resources.assertCan(ctx, 'manage', r);
    const p = await this.principal(ctx.em, type, principal);
    await this.managing(ctx, r, async (tx) => {
      const gone = await rawQuery<{ permission: string }>(
        tx,
        `delete from access_grant where resource_id = ? and principal_type = ? and principal_id = ? returning permission`,
        [r.uniqueId, p.type, p.id],
      );
      if (!gone.length) throw notFound(`Grant to ${p.type} ${p.name ?? p.id} on`, r.uniqueId);
      await this.emitGrant(tx, ctx, 'access.revoked', r, p, { permission: gone[0].permission });
    });
    return { resource: r, principal: p };
  }

  /** Removes a user's direct grant inside `em` (ownership transfer: the new owner needs none). */
  async removeUserGrantIn(em: EntityManager, resourceId: string, userId: string): Promise<void> {
    await rawQuery(
      em,
      `delete from access_grant where resource_id = ? and principal_type = 'user' and principal_id = ?`,
      [resourceId, userId],
    );
  }

  /** The principal of a grant, by exact lookup (ORCID, MFID, username or email; project slug or MFID; group name); 404 when none. */
  resolvePrincipal(em: EntityManager, type: PrincipalType, raw: string): Promise<Principal> {
    return this.principal(em, type, raw);
  }

  /**
   * Sets one principal's grant on many datasets inside `tx`, each to its own level (null: no
   * grant), in two statements, without permission checks (batch edits and their undo: the
   * caller holds the rows' locks and has checked `manage` and the grant cap).
   */
  setManyIn(
    tx: EntityManager,
    principal: { type: PrincipalType; id: string },
    levels: readonly { id: string; permission: string | null }[],
    grantedBy: string,
  ): Promise<void> {
    return setGrantsManyIn(tx, principal, levels, grantedBy);
  }

  /** Each of many datasets' grant to one principal and its grant count, read through `em` (batch edits). */
  principalManyIn(
    em: EntityManager,
    principal: { type: PrincipalType; id: string },
    resourceIds: readonly string[],
  ): Promise<Map<string, { permission: string | null; n: number }>> {
    return principalGrantsManyIn(em, principal, resourceIds);
  }

  /** The grants of a resource as stored, in a stable order (for listings and preview digests). */
  rowsOf(em: EntityManager, resourceId: string): Promise<GrantRow[]> {
    return rawQuery<GrantRow>(
      em,
      `select resource_id, resource_type, principal_type, principal_id, permission, granted_by, creation_time
       from access_grant where resource_id = ? order by principal_type, principal_id`,
      [resourceId],
    );
  }

  private async grant(
    ctx: RequestContext,
    r: AnyResource,
    principal: Principal,
    permission: GrantablePermission,
  ): Promise<GrantView> {
    const rows = await this.managing(ctx, r, async (tx, owner) => {
      if (principal.type === 'user' && principal.id === owner) {
        throw conflict(`${principal.id} owns ${r.uniqueId}: an owner's access is not changed by grants`);
      }
      await assertRoomForGrant(tx, r.uniqueId, principal);
      const previous = await rawQuery<{ permission: string }>(
        tx,
        'select permission from access_grant where resource_id = ? and principal_type = ? and principal_id = ?',
        [r.uniqueId, principal.type, principal.id],
      );
      const from = previous[0]?.permission ?? null;
      if (from !== permission) {
        await this.emitGrant(tx, ctx, from ? 'access.changed' : 'access.granted', r, principal, {
          permission,
          ...(from ? { previous: from } : {}),
        });
      }
      return rawQuery<GrantRow>(
        tx,
        `insert into access_grant (resource_id, resource_type, principal_type, principal_id, permission, granted_by)
         values (?, ?, ?, ?, ?, ?)
         on conflict (resource_id, principal_type, principal_id)
         do update set permission = excluded.permission, granted_by = excluded.granted_by
         returning resource_id, resource_type, principal_type, principal_id, permission, granted_by, creation_time`,
        [r.uniqueId, r.type, principal.type, principal.id, permission, ctx.userId],
      );
    });
    return toView(rows[0], principal);
  }

  /**
   * Runs a grant change in one transaction holding the resource's row lock (the lock ownership
   * transfer and project reassignment take), after checking `manage` again on the row as locked:
   * a change whose earlier check went stale (the owner moved meanwhile) does not land. `write`
   * gets the transaction and the current owner.
   */
  private async managing<T>(
    ctx: RequestContext,
    r: AnyResource,
    write: (tx: EntityManager, ownerId: string) => Promise<T>,
  ): Promise<T> {
    const result = await ctx.em.transactional(async (tx) => {
      const row = await this.deps.resources.ownershipRow(tx, r.type, r.uniqueId, true);
      if (!row) throw notFound('Resource', r.uniqueId);
      await this.deps.resources.assertCanOn(ctx.within(tx), 'manage', subjectOfRow(r.type, row));
      return write(tx, row.ownerId);
    });
    ctx.resetScope();
    return result;
  }

  private async emitGrant(
    tx: EntityManager,
    ctx: RequestContext,
    type: 'access.granted' | 'access.changed' | 'access.revoked',
    r: AnyResource,
    principal: Principal,
    details: Record<string, unknown>,
  ): Promise<void> {
    await this.deps.events.emit(tx, {
      type,
      actorId: actorOf(ctx),
      resourceId: r.uniqueId,
      resourceType: r.type,
      payload: { principal_type: principal.type, principal_id: principal.id, ...details },
    });
  }

  /** Resolves the principal of an access route by exact lookup; 404 when none matches. */
  private async principal(em: EntityManager, type: PrincipalType, raw: string): Promise<Principal> {
    const value = raw.trim();
    if (type === 'user') {
      const user = value ? await this.deps.users.resolve(em, value) : null;
      if (!user) throw notFound('User', raw);
      return { type, id: user.uniqueId, name: user.username ?? null, user };
    }
    if (type === 'project') {
      const project = value ? await this.deps.projects.find(em, value) : null;
      if (!project) throw notFound('Project', raw);
      return { type, id: project.uniqueId, name: project.projectId, project };
    }
    const group = value ? await this.deps.groups.find(em, value) : null;
    if (!group) throw notFound('Access group', raw);
    return { type, id: group.name, name: group.name };
  }

  /** A legacy group name: a project slug, then a user's own id, then a named group. */
  private async groupPrincipal(em: EntityManager, name: string): Promise<Principal> {
    if (await this.deps.projects.find(em, name)) return this.principal(em, 'project', name);
    if (isOrcid(name) || isMfid(name)) return this.principal(em, 'user', name);
    return this.principal(em, 'group', name);
  }

  private async view(ctx: RequestContext, row: GrantRow): Promise<GrantView> {
    let principal: Principal = { type: row.principal_type, id: row.principal_id, name: row.principal_id };
    if (row.principal_type === 'user') {
      const user = (await ctx.loaders.user.load(row.principal_id)) ?? undefined;
      principal = { ...principal, name: user?.username ?? null, user };
    } else if (row.principal_type === 'project') {
      const project = (await ctx.loaders.project.load(row.principal_id)) ?? undefined;
      principal = { ...principal, name: project?.projectId ?? null, project };
    }
    return toView(row, principal);
  }
}

function toView(row: GrantRow, principal: Principal): GrantView {
  return {
    resourceId: row.resource_id,
    resourceType: row.resource_type,
    principal,
    permission: row.permission,
    grantedBy: row.granted_by,
    creationTime: new Date(row.creation_time),
  };
}

function parseKind(kind: string): PrincipalType {
  const type = Object.hasOwn(GRANT_KINDS, kind) ? GRANT_KINDS[kind] : undefined;
  if (!type) throw validationError('kind', `must be one of ${Object.keys(GRANT_KINDS).join(', ')}`);
  return type;
}

function parsePermission(raw: unknown, resourceId: string): GrantablePermission {
  if (raw === 'owner') {
    throw conflict(
      `owner cannot be granted: ownership moves only through POST /resources/${resourceId}/transfer_ownership`,
    );
  }
  if (typeof raw !== 'string' || !(PERMISSIONS as readonly string[]).includes(raw)) {
    throw validationError('permission', 'must be viewer, contributor, editor or admin');
  }
  return raw as GrantablePermission;
}
