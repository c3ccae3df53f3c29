import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import {
  assertNoProblems,
  conflict,
  forbidden,
  notFound,
  validationError,
  type FieldProblem,
} from '../../core/errors';
import { isMfid } from '../../core/ids';
import { uniquely } from '../../core/db/unique';
import { offsetRows } from '../../core/db/page';
import { rawQuery } from '../../core/db/raw';
import { and, likeEscape, sql, type Sql } from '../../core/db/sql';
import { ApiKey } from './api-key.entity';
import { User } from './user.entity';
import type { IssuedKey, UserService } from './user.service';
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

/**
 * The modules whose tables name an owner (dataset, sample, project, instrument), by table: each
 * passes the records one user owns to another inside the caller's transaction (deleting a user).
 */
export type OwnerTablesIn = Record<
  string,
  { reassignOwnerIn(tx: EntityManager, from: string, to: string): Promise<number> }
>;

/** The grants made to a user, removed by the module that owns them when the user is deleted. */
export interface UserGrantsIn {
  removeUserGrantsIn(tx: EntityManager, userId: string): Promise<void>;
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

export interface KeyStatus {
  valid: boolean;
  createdAt: Date | null;
  expiresAt: Date | null;
}

/** An API key as operators list it (never its secret or hash). */
export interface KeyListing {
  keyId: string;
  prefix: string;
  userId: string;
  username: string | null;
  label: string | null;
  status: 'active' | 'expired' | 'revoked';
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** Records that keep a user from being deleted: `table.column` and how many rows name the user. */
export interface OwnedRecords {
  table: string;
  column: string;
  count: number;
}

const SERVICE_ACCOUNT_NAME = /^[a-z0-9_-]{2,64}$/;

/** The limits on a person's own keys (docs/authentication.md, "Your own API keys"). */
export const OWN_KEYS = {
  /** live (unrevoked, unexpired) keys a person may hold at once */
  maxLive: 20,
  /** the longest label, in characters */
  maxLabel: 100,
  /** the expiry when none is given */
  defaultDays: 90,
  /** the farthest expiry */
  maxDays: 365,
  /** the most keys a listing answers: the live ones first, then the newest of the others */
  maxListed: 100,
} as const;

const DAY_MS = 86_400_000;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** What a person gives for a new key of their own. */
export interface OwnKeyInput {
  label?: unknown;
  expiresAt?: unknown;
}
const KEY_PREFIX_INPUT = /^[A-Za-z0-9_-]{6,16}$/;

/**
 * The user directory and account administration: exact lookups, batch resolution, listing,
 * upserts and updates, key status, service accounts, and profile self-service.
 */
export class UserAdminService {
  constructor(
    private readonly users: UserService,
    readonly policy: UserPolicy,
    private readonly members: ProjectMembershipsIn,
    private readonly owners: OwnerTablesIn,
    private readonly grants: UserGrantsIn,
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

  /** The status of the newest active key of the user with this ORCID or MFID (platform admins; or oneself). */
  async keyStatus(ctx: RequestContext, uniqueId: string): Promise<KeyStatus> {
    const user = await this.get(ctx, uniqueId);
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
      await this.keyCreatedIn(em, ctx.userId, issued.key);
      return { ...issued, user };
    });
  }

  /** Revokes a service account's keys and issues a new one (platform admins). */
  async rotateServiceAccountKey(ctx: RequestContext, uniqueId: string): Promise<IssuedKey & { user: User }> {
    this.policy.assertPlatformAdmin(ctx, 'rotate service account keys');
    const user = await this.users.get(ctx.em, uniqueId);
    if (!user?.isServiceAccount) throw notFound('Service account', uniqueId);
    return ctx.em.transactional(async (em) => {
      await this.revokeAllKeysIn(em, ctx.userId, user.uniqueId);
      const issued = await this.users.issueKey(em, user, { label: 'service account (rotated)' });
      await this.keyCreatedIn(em, ctx.userId, issued.key);
      return { ...issued, user };
    });
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
    const user = opts.serviceAccount
      ? await this.serviceAccount(ctx, uniqueId)
      : await this.resolve(ctx, uniqueId);
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

  /** Revokes every key of a user (platform administrators); their next request is 401. */
  async revokeApiKeys(ctx: RequestContext, uniqueId: string): Promise<number> {
    this.policy.assertPlatformAdmin(ctx, "revoke users' API keys");
    const user = await this.resolve(ctx, uniqueId);
    return ctx.em.transactional(
      async (tx) => (await this.revokeAllKeysIn(tx, ctx.userId, user.uniqueId)).length,
    );
  }

  /** A service account by MFID or username (platform administrators); 404 for anything else. */
  async serviceAccount(ctx: RequestContext, uniqueId: string): Promise<User> {
    this.policy.assertPlatformAdmin(ctx, 'administer service accounts');
    const user = await this.users.resolve(ctx.em, uniqueId);
    if (!user?.isServiceAccount) throw notFound('Service account', uniqueId);
    return user;
  }

  /**
   * Service accounts, oldest first (platform administrators), `q` matching the username, names
   * or MFID case-insensitively.
   */
  async listServiceAccounts(
    ctx: RequestContext,
    q: string | undefined,
    page: { limit: number; offset: number },
  ): Promise<{ items: User[]; total: number }> {
    this.policy.assertPlatformAdmin(ctx, 'list service accounts');
    const pattern = q ? `%${likeEscape(q.toLowerCase())}%` : null;
    const where = and(
      sql('is_service_account = true'),
      pattern
        ? sql(
            `(lower(coalesce(username, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '')) like ? escape '\\' or lower(unique_id) like ? escape '\\')`,
            pattern,
            pattern,
          )
        : null,
    );
    return offsetRows(ctx.em, User, { select: '*', from: 'app_user', where, order: 'id' }, page);
  }

  /** The status of each user's newest unrevoked key, in one statement (no key: not valid). */
  async keyStatuses(em: EntityManager, users: readonly User[]): Promise<Map<string, KeyStatus>> {
    const out = new Map<string, KeyStatus>(
      users.map((u) => [u.uniqueId, { valid: false, createdAt: null, expiresAt: null }]),
    );
    if (users.length === 0) return out;
    const rows = await rawQuery<{
      user_id: string;
      created_at: string | Date;
      expires_at: string | Date | null;
    }>(
      em,
      `select distinct on (user_id) user_id, created_at, expires_at from api_key
       where user_id in (?) and revoked_at is null order by user_id, created_at desc`,
      [users.map((u) => u.uniqueId)],
    );
    const now = Date.now();
    for (const r of rows) {
      const expiresAt = r.expires_at === null ? null : new Date(r.expires_at);
      out.set(r.user_id, {
        valid: !expiresAt || expiresAt.getTime() > now,
        createdAt: new Date(r.created_at),
        expiresAt,
      });
    }
    return out;
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
    return this.setDisabled(ctx.em, user, true);
  }

  /** Ends every browser session of a user: the user themself, or a platform admin; how many ended. */
  async signOutEverywhere(ctx: RequestContext, uniqueId: string): Promise<number> {
    const user = await this.users.require(ctx.em, uniqueId);
    this.policy.assertSelfOrAdmin(ctx, user, 'sign this user out everywhere');
    return this.endSessions(ctx.em, user.uniqueId);
  }

  // --- a person's own keys (and platform administrators: anyone's) ---

  /**
   * Issues a key to the caller (a person, not a service account: theirs are an administrator's
   * tool): a label (1-100 characters), an expiry in the future at most 365 days ahead (90 days
   * when none is given), at most 20 live keys at once (422 beyond). The user row is locked while
   * the live keys are counted, so concurrent requests cannot pass the cap together.
   */
  async createOwnKey(ctx: RequestContext, input: OwnKeyInput): Promise<{ key: KeyListing; secret: string }> {
    const user = ctx.caller.user;
    if (user.isServiceAccount) {
      throw forbidden("A service account's keys are issued by platform administrators (rotate_key)");
    }
    const problems: FieldProblem[] = [];
    const label = typeof input.label === 'string' ? input.label.trim() : '';
    if (!label || label.length > OWN_KEYS.maxLabel || CONTROL.test(label)) {
      problems.push({
        field: 'label',
        message: `is required: 1-${OWN_KEYS.maxLabel} characters, no control characters`,
      });
    }
    const now = Date.now();
    let expiresAt = new Date(now + OWN_KEYS.defaultDays * DAY_MS);
    if (input.expiresAt !== undefined && input.expiresAt !== null) {
      const given =
        input.expiresAt instanceof Date
          ? input.expiresAt
          : typeof input.expiresAt === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(input.expiresAt)
            ? new Date(input.expiresAt)
            : new Date(NaN);
      if (Number.isNaN(given.getTime())) {
        problems.push({ field: 'expires_at', message: 'must be an ISO 8601 date-time' });
      } else if (given.getTime() <= now) {
        problems.push({ field: 'expires_at', message: 'must be in the future' });
      } else if (given.getTime() > now + OWN_KEYS.maxDays * DAY_MS) {
        problems.push({ field: 'expires_at', message: `must be at most ${OWN_KEYS.maxDays} days ahead` });
      } else expiresAt = given;
    }
    assertNoProblems(problems);
    return ctx.em.transactional(async (tx) => {
      await rawQuery(tx, 'select 1 from app_user where unique_id = ? for update', [user.uniqueId]);
      const [{ n }] = await rawQuery<{ n: number }>(
        tx,
        `select count(*)::int as n from api_key
         where user_id = ? and revoked_at is null and (expires_at is null or expires_at > now())`,
        [user.uniqueId],
      );
      if (n >= OWN_KEYS.maxLive) {
        throw validationError(
          'api_keys',
          `you hold ${n} live keys, the most allowed (${OWN_KEYS.maxLive}): revoke one first`,
        );
      }
      const { key, secret } = await this.users.issueKey(tx, user, { label, expiresAt });
      await this.keyCreatedIn(tx, user.uniqueId, key);
      return { key: listing(key, Date.now()), secret };
    });
  }

  /** The caller's own keys (never a secret): live ones first, then the newest (at most 100). */
  listOwnKeys(ctx: RequestContext): Promise<KeyListing[]> {
    return this.keysOf(ctx.em, ctx.caller.user);
  }

  /** A user's keys: the user themself or a platform administrator (403 otherwise). */
  async listUserKeys(ctx: RequestContext, uniqueId: string): Promise<KeyListing[]> {
    const user = await this.resolve(ctx, uniqueId);
    this.policy.assertSelfOrAdmin(ctx, user, "list another user's API keys");
    return this.keysOf(ctx.em, user);
  }

  /**
   * Revokes one key: the caller's own, or anyone's for a platform administrator; a key the
   * caller may not see is 404, as a missing one. With `userId`, the key must also be that user's
   * (404 otherwise). Revoking a revoked key changes nothing. The next request with it is 401
   * (writes to api_key empty the authentication cache).
   */
  async revokeOwnKey(ctx: RequestContext, keyId: string, userId?: string): Promise<KeyListing> {
    const key = isMfid(keyId)
      ? await ctx.em.findOne(ApiKey, { uniqueId: keyId }, { populate: ['user'] })
      : null;
    const visible =
      key &&
      (ctx.isPlatformAdmin || key.user.uniqueId === ctx.userId) &&
      (userId === undefined || key.user.uniqueId === userId);
    if (!key || !visible) throw notFound('API key', keyId);
    if (!key.revokedAt) {
      await ctx.em.transactional(async (tx) => {
        // only the request whose update revokes the key records it (two at once: one event)
        const revoked = await tx.nativeUpdate(
          ApiKey,
          { uniqueId: key.uniqueId, revokedAt: null },
          { revokedAt: new Date() },
        );
        if (revoked) await this.keyRevokedIn(tx, ctx.userId, key.user.uniqueId, key);
      });
      await ctx.em.refresh(key);
    }
    return listing(key, Date.now());
  }

  /**
   * `account.api_key_created` in the history of the key's holder, inside the caller's
   * transaction: the key's id, label, display prefix and expiry, never its secret or hash.
   */
  private async keyCreatedIn(tx: EntityManager, actorId: string, key: ApiKey): Promise<void> {
    await this.events.emit(tx, {
      type: 'account.api_key_created',
      actorId,
      resourceId: key.user.uniqueId,
      resourceType: 'user',
      projectMfid: null,
      payload: {
        key_id: key.uniqueId,
        label: key.label ?? null,
        prefix: key.prefix,
        expires_at: key.expiresAt?.toISOString() ?? null,
      },
    });
  }

  /** `account.api_key_revoked` in the history of the key's holder, inside the caller's transaction. */
  private async keyRevokedIn(
    tx: EntityManager,
    actorId: string,
    userId: string,
    key: { uniqueId: string; label?: string | null; prefix: string },
  ): Promise<void> {
    await this.events.emit(tx, {
      type: 'account.api_key_revoked',
      actorId,
      resourceId: userId,
      resourceType: 'user',
      projectMfid: null,
      payload: { key_id: key.uniqueId, label: key.label ?? null, prefix: key.prefix },
    });
  }

  /** Revokes every live key of a user inside `tx`, one `account.api_key_revoked` each. */
  private async revokeAllKeysIn(
    tx: EntityManager,
    actorId: string,
    userId: string,
  ): Promise<{ unique_id: string }[]> {
    const rows = await rawQuery<{ unique_id: string; label: string | null; prefix: string }>(
      tx,
      `update api_key set revoked_at = now() where user_id = ? and revoked_at is null
       returning unique_id, label, prefix`,
      [userId],
    );
    for (const r of rows) {
      await this.keyRevokedIn(tx, actorId, userId, {
        uniqueId: r.unique_id,
        label: r.label,
        prefix: r.prefix,
      });
    }
    return rows;
  }

  /** Revokes a key of the user `uniqueId` names: the user themself or a platform administrator. */
  async revokeUserKey(ctx: RequestContext, uniqueId: string, keyId: string): Promise<KeyListing> {
    const user = await this.resolve(ctx, uniqueId);
    this.policy.assertSelfOrAdmin(ctx, user, "revoke another user's API keys");
    return this.revokeOwnKey(ctx, keyId, user.uniqueId);
  }

  private async keysOf(em: EntityManager, user: User): Promise<KeyListing[]> {
    const rows = await rawQuery<{ unique_id: string }>(
      em,
      `select unique_id from api_key where user_id = ?
       order by (revoked_at is null and (expires_at is null or expires_at > now())) desc,
         created_at desc, unique_id desc
       limit ?`,
      [user.uniqueId, OWN_KEYS.maxListed],
    );
    if (!rows.length) return [];
    const keys = await em.find(
      ApiKey,
      { uniqueId: { $in: rows.map((r) => r.unique_id) } },
      { populate: ['user'] },
    );
    const byId = new Map(keys.map((k) => [k.uniqueId, k]));
    const now = Date.now();
    return rows.flatMap((r) => {
      const key = byId.get(r.unique_id);
      return key ? [listing(key, now)] : [];
    });
  }

  // --- operator operations (the admin command line acts as the platform operator: no caller) ---

  /** Every key, or one user's, newest first. */
  async listKeys(em: EntityManager, user?: User): Promise<KeyListing[]> {
    const keys = await em.find(ApiKey, user ? { user } : {}, {
      populate: ['user'],
      orderBy: { createdAt: 'desc', uniqueId: 'desc' },
    });
    const now = Date.now();
    return keys.map((k) => listing(k, now));
  }

  /**
   * Revokes the one key whose display prefix starts with `prefix` (or whose id is `prefix`).
   * 404 when none matches, 409 when several do (give more characters) or it is already revoked.
   */
  async revokeKey(em: EntityManager, prefix: string): Promise<ApiKey> {
    if (!KEY_PREFIX_INPUT.test(prefix) && !isMfid(prefix)) {
      throw validationError(
        'prefix',
        'give the key prefix shown by list-keys (at least 6 characters) or its id',
      );
    }
    const rows = await rawQuery<{ unique_id: string }>(
      em,
      `select unique_id from api_key where unique_id = ? or prefix like ? escape '\\' order by created_at`,
      [prefix, `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`],
    );
    if (!rows.length) throw notFound('API key', prefix);
    if (rows.length > 1) {
      throw conflict(`${rows.length} keys start with ${prefix}: give more characters or the key id`);
    }
    const key = await em.findOneOrFail(ApiKey, { uniqueId: rows[0].unique_id }, { populate: ['user'] });
    if (key.revokedAt) throw conflict(`key ${key.prefix}… was already revoked`);
    key.revokedAt = new Date();
    await em.flush();
    return key;
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
  async setDisabled(em: EntityManager, user: User, disabled: boolean): Promise<User> {
    user.disabledAt = disabled ? (user.disabledAt ?? new Date()) : null;
    await em.transactional(async (tx) => {
      await tx.flush();
      if (disabled) await this.endSessions(tx, user.uniqueId);
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

  /**
   * The records that name `user` through a foreign key that does not cascade (what it owns:
   * projects, instruments, datasets, samples), read from the catalog so new tables count too.
   */
  async ownedRecords(em: EntityManager, user: User): Promise<OwnedRecords[]> {
    const refs = await rawQuery<{ table: string; column: string }>(
      em,
      `select c.conrelid::regclass::text as table, a.attname as column
       from pg_constraint c
       join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
       where c.contype = 'f' and c.confrelid = 'app_user'::regclass and c.confdeltype in ('a', 'r')
         and array_length(c.conkey, 1) = 1
       order by 1, 2`,
    );
    const out: OwnedRecords[] = [];
    for (const ref of refs) {
      const [{ n }] = await rawQuery<{ n: number }>(
        em,
        `select count(*)::int as n from ${quoteIdent(ref.table)} where ${quoteIdent(ref.column)} = ?`,
        [user.uniqueId],
      );
      if (n > 0) out.push({ table: ref.table, column: ref.column, count: n });
    }
    return out;
  }

  /**
   * Deletes a user with their keys, memberships, join requests and the grants made to them.
   * Refused (409, naming the records) while they own records, unless `transferTo` is given: then
   * every owned record passes to that user first, in the same transaction. Request and audit
   * records keep the deleted user's id as history.
   */
  async deleteUser(
    em: EntityManager,
    user: User,
    transferTo?: User,
  ): Promise<{ transferred: OwnedRecords[] }> {
    if (transferTo?.uniqueId === user.uniqueId) throw validationError('transfer_to', 'must be another user');
    return em.transactional(async (tx) => {
      await rawQuery(tx, 'select 1 from app_user where unique_id = ? for update', [user.uniqueId]);
      const owned = await this.ownedRecords(tx, user);
      if (owned.length && !transferTo) {
        const list = owned.map((o) => `${o.count} ${o.table}`).join(', ');
        throw conflict(
          `${user.uniqueId} still owns records (${list}): transfer them first or give a new owner`,
        );
      }
      // with records owned, transferTo is given (refused above otherwise)
      if (transferTo)
        for (const o of owned) {
          // a table naming an owner that no module reassigns is refused, never written from here
          const owner = Object.hasOwn(this.owners, o.table) ? this.owners[o.table] : undefined;
          if (!owner || o.column !== 'owner_id') {
            throw conflict(
              `${o.count} ${o.table} records name ${user.uniqueId} and cannot be given to another user`,
            );
          }
          await owner.reassignOwnerIn(tx, user.uniqueId, transferTo.uniqueId);
        }
      await this.grants.removeUserGrantsIn(tx, user.uniqueId);
      await rawQuery(tx, 'delete from app_user where unique_id = ?', [user.uniqueId]);
      return { transferred: owned };
    });
  }
}

/** A key as listings show it (never its secret or hash); its user must be loaded. */
function listing(k: ApiKey, now: number): KeyListing {
  return {
    keyId: k.uniqueId,
    prefix: k.prefix,
    userId: k.user.uniqueId,
    username: k.user.username ?? null,
    label: k.label ?? null,
    status: k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt.getTime() <= now ? 'expired' : 'active',
    createdAt: k.createdAt,
    expiresAt: k.expiresAt ?? null,
    revokedAt: k.revokedAt ?? null,
    lastUsedAt: k.lastUsedAt ?? null,
  };
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected identifier ${name}`);
  return `"${name}"`;
}
