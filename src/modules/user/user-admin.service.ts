import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { assertNoProblems, conflict, notFound, validationError, type FieldProblem } from '../../core/errors';
import { uniquely } from '../../core/db/unique';
import { offsetRows } from '../../core/db/page';
import { rawQuery } from '../../core/db/raw';
import { and, likeEscape, sql, type Sql } from '../../core/db/sql';
import { User } from './user.entity';
import type { UserService } from './user.service';
import type { UserPolicy } from './user.policy';
import type { PlatformRole } from '../../core/auth/privilege';
import type { EventService } from '../outbox/event.service';

/**
 * Project memberships as user administration needs them (the project module's member service,
 * wired in services.ts): a user made a member of a project inside the caller's transaction.
 */
export interface ProjectMembershipsIn {
  ensureIn(inTx: RequestContext, projectId: string, user: User): Promise<void>;
}

export interface UserPatch {
  username?: string | null;
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  isServiceAccount?: boolean;
}

export interface UserListFilter {
  email?: string;
  /** with an email filter: case-insensitive substring instead of exact (case-insensitive) match */
  permissive?: boolean;
  username?: string;
  isServiceAccount?: boolean;
}

/**
 * The user directory and account administration: exact lookups, batch resolution, listing,
 * upserts and updates, platform roles, activation and disabling, and profile self-service.
 * Service accounts are `ServiceAccountService`, API keys `ApiKeyAdminService`, deleting a user
 * `UserRemovalService`.
 */
export class UserAdminService {
  constructor(
    private readonly users: UserService,
    readonly policy: UserPolicy,
    private readonly members: ProjectMembershipsIn,
    private readonly events: EventService,
  ) {}

  /** A user by ORCID or MFID; 404 when there is none. */
  get(ctx: RequestContext, uniqueId: string): Promise<User> {
    return this.users.require(ctx.em, uniqueId);
  }

  /** A user by ORCID, MFID, username or email; 404 when there is none. */
  async resolve(ctx: RequestContext, id: string): Promise<User> {
    const user = await this.users.resolve(ctx.em, id);
    if (!user) throw notFound('User', id);
    return user;
  }

  async getByUsername(ctx: RequestContext, username: string): Promise<User> {
    const user = username.includes('@') ? null : await this.users.resolve(ctx.em, username);
    if (!user || user.username?.toLowerCase() !== username.toLowerCase()) throw notFound('User', username);
    return user;
  }

  /** Resolves identifiers in batch; keys are the canonical ids of the users found, or the input. */
  async resolveMany(
    ctx: RequestContext,
    ids: { orcids?: string[]; usernames?: string[]; emails?: string[] },
  ): Promise<Map<string, User | null>> {
    const out = new Map<string, User | null>();
    const all = [...(ids.orcids ?? []), ...(ids.usernames ?? []), ...(ids.emails ?? [])];
    if (all.length === 0) throw validationError('body', 'give at least one of orcids, usernames, emails');
    if (all.length > 1000) throw validationError('body', 'resolve at most 1000 identifiers at once');
    for (const id of all) {
      if (typeof id !== 'string') throw validationError('body', 'identifiers must be strings');
      const user = await this.users.resolve(ctx.em, id);
      out.set(user?.uniqueId ?? id, user);
    }
    return out;
  }

  async list(
    ctx: RequestContext,
    filter: UserListFilter,
    page: { limit: number; offset: number },
  ): Promise<{ items: User[]; total: number }> {
    this.policy.assertPlatformAdmin(ctx, 'list users');
    const where: Sql[] = [];
    if (filter.email !== undefined) {
      where.push(
        filter.permissive
          ? sql(`lower(email) like ? escape '\\'`, `%${likeEscape(filter.email.toLowerCase())}%`)
          : sql('lower(email) = lower(?)', filter.email),
      );
    }
    if (filter.username !== undefined) where.push(sql('lower(username) = lower(?)', filter.username));
    if (filter.isServiceAccount !== undefined) {
      where.push(sql('is_service_account = ?', filter.isServiceAccount));
    }
    return offsetRows(
      ctx.em,
      User,
      { select: '*', from: 'app_user', where: and(...where), order: 'id' },
      page,
    );
  }

  /**
   * Creates a user or updates the one with that ORCID (platform admins), and makes them a member
   * of each project in `projectIds` (MFIDs or slugs; a member keeps their role). One
   * transaction: an unknown project (404) leaves no user behind.
   */
  async upsert(
    ctx: RequestContext,
    uniqueId: string | undefined,
    patch: UserPatch,
    projectIds: readonly string[] = [],
  ): Promise<{ user: User; created: boolean }> {
    this.policy.assertPlatformAdmin(ctx, 'create users');
    if (!uniqueId) throw validationError('orcid', 'is required');
    const result = await ctx.em.transactional(async (tx) => {
      const existing = await this.users.get(tx, uniqueId);
      const upserted = existing
        ? { user: await this.apply(tx, existing, patch), created: false }
        : { user: await this.users.create(tx, { uniqueId, ...patch }), created: true };
      const inTx = ctx.within(tx);
      for (const projectId of projectIds) await this.members.ensureIn(inTx, projectId, upserted.user);
      return upserted;
    });
    if (projectIds.length > 0) ctx.resetScope();
    return result;
  }

  async update(ctx: RequestContext, uniqueId: string, patch: UserPatch): Promise<User> {
    this.policy.assertPlatformAdmin(ctx, 'change other users');
    return this.apply(ctx.em, await this.get(ctx, uniqueId), patch);
  }

  /** Changes the caller's own profile; whether one is a service account is not theirs to change. */
  async updateProfile(ctx: RequestContext, patch: Omit<UserPatch, 'isServiceAccount'>): Promise<User> {
    return this.apply(ctx.em, ctx.caller.user, patch);
  }

  private async apply(em: EntityManager, user: User, patch: UserPatch): Promise<User> {
    const problems: FieldProblem[] = this.users.validateNewUser({
      username: patch.username,
      email: patch.email,
    });
    for (const key of ['firstName', 'lastName'] as const) {
      const v = patch[key];
      if (v != null && (typeof v !== 'string' || v.length > 200)) {
        problems.push({
          field: key === 'firstName' ? 'first_name' : 'last_name',
          message: 'must be a string of at most 200 characters',
        });
      }
    }
    assertNoProblems(problems);
    if (patch.username !== undefined) user.username = patch.username;
    if (patch.email !== undefined) user.email = patch.email;
    if (patch.firstName !== undefined) user.firstName = patch.firstName;
    if (patch.lastName !== undefined) user.lastName = patch.lastName;
    if (patch.isServiceAccount !== undefined) user.isServiceAccount = patch.isServiceAccount;
    await this.users.assertIdentifiersFree(em, user, false);
    await uniquely(() => em.flush(), 'that username or email is already taken');
    return user;
  }

  /**
   * Sets a user's platform role (platform administrators acting elevated). `serviceAccount`
   * limits it to service accounts (`PATCH /service_accounts/{id}`: 404 for a person). The last
   * administrator cannot be demoted (409): the administrators are locked first, so two demotions
   * at once cannot both pass.
   */
  async setPlatformRole(
    ctx: RequestContext,
    uniqueId: string,
    role: PlatformRole,
    opts: { serviceAccount?: boolean } = {},
  ): Promise<User> {
    this.policy.assertPlatformAdmin(ctx, 'change platform roles');
    const user = await this.users.resolve(ctx.em, uniqueId);
    if (!user || (opts.serviceAccount && !user.isServiceAccount))
      throw notFound(opts.serviceAccount ? 'Service account' : 'User', uniqueId);
    if (user.platformRole === role) return user;
    await ctx.em.transactional(async (tx) => {
      const admins = await rawQuery<{ unique_id: string }>(
        tx,
        `select unique_id from app_user where platform_role = 'admin' order by unique_id for update`,
      );
      const demoted = user.platformRole === 'admin' && role !== 'admin';
      if (demoted && admins.every((a) => a.unique_id === user.uniqueId)) {
        throw conflict('The last platform administrator keeps the admin role');
      }
      await rawQuery(
        tx,
        `update app_user set platform_role = ?, modification_time = now() where unique_id = ?`,
        [role, user.uniqueId],
      );
    });
    user.platformRole = role;
    return user;
  }

  /**
   * Activates an account that awaits it (a person's first sign-in through the OpenID provider
   * under `OIDC_NEW_USERS=pending`); platform admins. Activating an active account changes nothing.
   */
  async activate(ctx: RequestContext, uniqueId: string): Promise<User> {
    this.policy.assertPlatformAdmin(ctx, 'activate accounts');
    const user = await this.users.require(ctx.em, uniqueId);
    return this.activateUser(ctx.em, user);
  }

  /**
   * Accounts awaiting activation (made by a first OpenID sign-in under `OIDC_NEW_USERS=pending`)
   * and not disabled, the longest waiting first: at most `first` (1-500) after `offset`, and
   * their total; platform admins.
   */
  async listPending(
    ctx: RequestContext,
    page: { first: number; offset: number },
  ): Promise<{ items: User[]; total: number }> {
    this.policy.assertPlatformAdmin(ctx, 'list accounts awaiting activation');
    if (!Number.isInteger(page.first) || page.first < 1 || page.first > 500) {
      throw validationError('first', 'must be between 1 and 500');
    }
    if (!Number.isInteger(page.offset) || page.offset < 0 || page.offset > 1_000_000) {
      throw validationError('offset', 'must be between 0 and 1000000');
    }
    return offsetRows(
      ctx.em,
      User,
      {
        select: '*',
        from: 'app_user',
        where: sql('pending_since is not null and disabled_at is null'),
        order: 'pending_since, id',
      },
      { limit: page.first, offset: page.offset },
    );
  }

  /**
   * Disables an account (platform admins): none of its keys authenticate, its sessions end, it
   * is no longer listed as awaiting activation. Not yourself, and not a platform administrator
   * (409: change their role first), so no one locks the platform out from the page. The admin
   * command line's `enable-user` undoes it.
   */
  async disable(ctx: RequestContext, uniqueId: string): Promise<User> {
    this.policy.assertPlatformAdmin(ctx, 'disable accounts');
    const user = await this.users.require(ctx.em, uniqueId);
    if (user.uniqueId === ctx.userId) throw conflict('You cannot disable your own account');
    if (user.platformRole === 'admin') {
      throw conflict('A platform administrator cannot be disabled: change their platform role first');
    }
    return this.setDisabled(ctx.em, user, true, ctx.userId);
  }

  /**
   * Ends every browser session of a user: the user themself, or a platform admin; how many ended.
   * Recorded in the account's history (`account.sessions_ended`) when any did.
   */
  async signOutEverywhere(ctx: RequestContext, uniqueId: string): Promise<number> {
    const user = await this.users.require(ctx.em, uniqueId);
    this.policy.assertSelfOrAdmin(ctx, user, 'sign this user out everywhere');
    return ctx.em.transactional(async (tx) => {
      const ended = await this.endSessions(tx, user.uniqueId);
      await this.sessionsEndedIn(tx, ctx.userId, user.uniqueId, ended, 'signed_out_everywhere');
      return ended;
    });
  }

  /**
   * `account.sessions_ended` in the account's history, inside the caller's transaction, when
   * sessions were ended by someone (an administrator disabling the account or signing it out
   * everywhere, or the person themself); the admin command line acts as the operator, outside any
   * account, and records nothing (`actorId` null).
   */
  private async sessionsEndedIn(
    tx: EntityManager,
    actorId: string | null,
    userId: string,
    ended: number,
    reason: 'signed_out_everywhere' | 'disabled',
  ): Promise<void> {
    if (ended === 0 || actorId === null) return;
    await this.events.emit(tx, {
      type: 'account.sessions_ended',
      actorId,
      resourceId: userId,
      resourceType: 'user',
      projectMfid: null,
      payload: { sessions_ended: ended, reason },
    });
  }

  /** Clears an account's pending state: from now on its sign-ins open sessions. */
  async activateUser(em: EntityManager, user: User): Promise<User> {
    if (user.pendingSince) {
      user.pendingSince = null;
      await em.flush();
    }
    return user;
  }

  /**
   * Disables (or enables) an account: while disabled, none of its keys authenticate, and
   * disabling ends its browser sessions for good (enabling it again revives none).
   */
  async setDisabled(
    em: EntityManager,
    user: User,
    disabled: boolean,
    actorId: string | null = null,
  ): Promise<User> {
    user.disabledAt = disabled ? (user.disabledAt ?? new Date()) : null;
    await em.transactional(async (tx) => {
      await tx.flush();
      if (!disabled) return;
      const ended = await this.endSessions(tx, user.uniqueId);
      await this.sessionsEndedIn(tx, actorId, user.uniqueId, ended, 'disabled');
    });
    return user;
  }

  /** Ends every browser session of a user (sign out everywhere); returns how many were active. */
  async endSessions(em: EntityManager, userId: string): Promise<number> {
    const rows = await rawQuery<{ n: number }>(
      em,
      `with ended as (update user_session set revoked_at = now()
         where user_id = ? and revoked_at is null and expires_at > now() returning 1)
       select count(*)::int as n from ended`,
      [userId],
    );
    return rows[0].n;
  }
}
