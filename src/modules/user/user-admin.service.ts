import type { RequestContext } from '../../core/context';
import { assertNoProblems, notFound, validationError, type FieldProblem } from '../../core/errors';
import { isMfid, isOrcid } from '../../core/ids';
import { uniquely } from '../../core/db/unique';
import { offsetRows } from '../../core/db/page';
import { and, likeEscape, sql, type Sql } from '../../core/db/sql';
import { ApiKey } from './api-key.entity';
import { User } from './user.entity';
import type { IssuedKey, UserService } from './user.service';
import type { UserPolicy } from './user.policy';

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

export interface KeyStatus {
  valid: boolean;
  createdAt: Date | null;
  expiresAt: Date | null;
}

const SERVICE_ACCOUNT_NAME = /^[a-z0-9_-]{2,64}$/;

/**
 * The user directory and account administration: exact lookups, batch resolution, listing,
 * upserts and updates, key status, service accounts, and profile self-service.
 */
export class UserAdminService {
  constructor(
    private readonly users: UserService,
    readonly policy: UserPolicy,
  ) {}

  /** A user by ORCID or MFID; 404 when there is none. */
  async get(ctx: RequestContext, uniqueId: string): Promise<User> {
    const user = isOrcid(uniqueId) || isMfid(uniqueId) ? await this.users.get(ctx.em, uniqueId) : null;
    if (!user) throw notFound('User', uniqueId);
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

  /** Creates a user or updates the one with that ORCID (platform admins). */
  async upsert(
    ctx: RequestContext,
    uniqueId: string | undefined,
    patch: UserPatch,
  ): Promise<{ user: User; created: boolean }> {
    this.policy.assertPlatformAdmin(ctx, 'create users');
    if (!uniqueId) throw validationError('orcid', 'is required');
    const existing = await this.users.get(ctx.em, uniqueId);
    if (!existing) {
      const user = await this.users.create(ctx.em, { uniqueId, ...patch });
      return { user, created: true };
    }
    return { user: await this.apply(ctx, existing, patch), created: false };
  }

  async update(ctx: RequestContext, uniqueId: string, patch: UserPatch): Promise<User> {
    this.policy.assertPlatformAdmin(ctx, 'change other users');
    return this.apply(ctx, await this.get(ctx, uniqueId), patch);
  }

  /** Changes the caller's own profile; whether one is a service account is not theirs to change. */
  async updateProfile(ctx: RequestContext, patch: Omit<UserPatch, 'isServiceAccount'>): Promise<User> {
    return this.apply(ctx, ctx.caller.user, patch);
  }

  private async apply(ctx: RequestContext, user: User, patch: UserPatch): Promise<User> {
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
    await this.users.assertIdentifiersFree(ctx.em, user, false);
    await uniquely(() => ctx.em.flush(), 'that username or email is already taken');
    return user;
  }

  /** The status of a user's newest active key (platform admins; or oneself). */
  async keyStatus(ctx: RequestContext, user: User): Promise<KeyStatus> {
    this.policy.assertSelfOrAdmin(ctx, user, "verify another user's key");
    const key = await ctx.em.findOne(ApiKey, { user, revokedAt: null }, { orderBy: { createdAt: 'desc' } });
    const valid = !!key && (!key.expiresAt || key.expiresAt.getTime() > Date.now());
    return { valid, createdAt: key?.createdAt ?? null, expiresAt: key?.expiresAt ?? null };
  }

  /** Creates a service account (platform admins); its first key is returned once. */
  async createServiceAccount(
    ctx: RequestContext,
    username: unknown,
    uniqueId?: unknown,
  ): Promise<IssuedKey & { user: User }> {
    this.policy.assertPlatformAdmin(ctx, 'create service accounts');
    if (typeof username !== 'string' || !SERVICE_ACCOUNT_NAME.test(username)) {
      throw validationError('username', 'lowercase letters, digits, "-" and "_" only (2-64 characters)');
    }
    if (uniqueId !== undefined && (typeof uniqueId !== 'string' || !isMfid(uniqueId))) {
      throw validationError('unique_id', 'a service account is keyed by a 26-character MFID');
    }
    return ctx.em.transactional(async (em) => {
      const user = await this.users.create(em, { uniqueId, username, isServiceAccount: true });
      const issued = await this.users.issueKey(em, user, { label: 'service account' });
      return { ...issued, user };
    });
  }

  /** Revokes a service account's keys and issues a new one (platform admins). */
  async rotateServiceAccountKey(ctx: RequestContext, uniqueId: string): Promise<IssuedKey & { user: User }> {
    this.policy.assertPlatformAdmin(ctx, 'rotate service account keys');
    const user = await this.users.get(ctx.em, uniqueId);
    if (!user?.isServiceAccount) throw notFound('Service account', uniqueId);
    return ctx.em.transactional(async (em) => {
      await this.users.revokeKeys(em, user);
      return { ...(await this.users.issueKey(em, user, { label: 'service account (rotated)' })), user };
    });
  }
}
