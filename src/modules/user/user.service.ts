import type { PlatformRole } from '../../core/auth/privilege';
import { uniquely } from '../../core/db/unique';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import type { Caller, RequestContext } from '../../core/context';
import {
  AppError,
  assertNoProblems,
  conflict,
  notFound,
  validationError,
  type FieldProblem,
} from '../../core/errors';
import { isMfid, isOrcid, newMfid } from '../../core/ids';
import type { CallerCache } from '../../core/auth/caller-cache';
import { generateApiKeySecret, hashApiKey, keyDisplayPrefix } from '../../core/auth/api-keys';
import { User } from './user.entity';
import { ApiKey } from './api-key.entity';
import type { UserPolicy } from './user.policy';

export interface NewUser {
  uniqueId?: string;
  username?: string | null;
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  isServiceAccount?: boolean;
  platformRole?: PlatformRole;
}

export interface IssuedKey {
  key: ApiKey;
  /** The secret; shown once, never stored. */
  secret: string;
}

/** The key's columns `authenticate` selects beside the user's. */
interface KeyColumns {
  k_unique_id: string;
  k_prefix: string;
  k_label: string | null;
  // timestamps arrive as the driver's text (the ORM keeps them unparsed in raw rows)
  k_created_at: string | Date;
  k_expires_at: string | Date | null;
  k_last_used_at: string | Date | null;
  k_attached: unknown;
}

/** What authentication selects: the user's columns and the key's (cached as such). */
export type AuthRow = Record<string, unknown> & KeyColumns;

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Users, their identifiers and their API keys. */
export class UserService {
  constructor(readonly policy: UserPolicy) {}

  /**
   * Finds a user by any of its identifiers: ORCID or MFID (the unique_id), email (contains `@`)
   * or username; emails and usernames match case-insensitively.
   */
  async resolve(em: EntityManager, identifier: string): Promise<User | null> {
    const value = identifier.trim();
    if (!value) return null;
    if (isOrcid(value) || isMfid(value)) return em.findOne(User, { uniqueId: value });
    const column = value.includes('@') ? 'email' : 'username';
    const rows = await rawQuery<{ unique_id: string }>(
      em,
      `select unique_id from app_user where lower(${column}) = lower(?)`,
      [value],
    );
    return rows.length === 1 ? em.findOne(User, { uniqueId: rows[0].unique_id }) : null;
  }

  /** The users of these ORCIDs or MFIDs (public-safe records, as `resolve`), in one statement. */
  byIds(em: EntityManager, ids: readonly string[]): Promise<User[]> {
    return em.find(User, { uniqueId: { $in: ids.filter((id) => isOrcid(id) || isMfid(id)) } });
  }

  /** The caller's own unrevoked API keys of these ids (never another user's), in one statement. */
  ownKeys(ctx: RequestContext, ids: readonly string[]): Promise<ApiKey[]> {
    return ctx.em.find(ApiKey, { uniqueId: { $in: ids.filter(isMfid) }, user: ctx.userId, revokedAt: null });
  }

  /** Resolves a flexible user identifier supplied in input field `field`; 422 when none matches. */
  /**
   * The owner named on create (datasets, samples): `owner` (ORCID, MFID, username or email) or
   * the deprecated `owner_orcid`, never both (spec 2.1 rule 3); given as null or absent: the
   * caller. An empty string is not "absent": it is a validation error naming the field.
   */
  async resolveOwnerInput(
    ctx: RequestContext,
    input: { owner?: string | null; ownerOrcid?: string | null },
  ): Promise<User> {
    const given = (v: string | null | undefined) => v !== undefined && v !== null;
    if (given(input.owner) && given(input.ownerOrcid)) {
      const message = 'give owner or the deprecated owner_orcid, not both';
      throw new AppError('VALIDATION', message, [
        { field: 'owner', message },
        { field: 'owner_orcid', message },
      ]);
    }
    if (given(input.owner)) return this.resolveField(ctx.em, 'owner', input.owner);
    if (given(input.ownerOrcid)) return this.resolveField(ctx.em, 'owner_orcid', input.ownerOrcid);
    return ctx.caller.user;
  }

  async resolveField(em: EntityManager, field: string, identifier: unknown): Promise<User> {
    if (typeof identifier !== 'string' || identifier.trim() === '') {
      throw validationError(field, 'must be an ORCID, MFID, username or email');
    }
    const user = await this.resolve(em, identifier);
    if (!user) throw validationError(field, `no user matches "${identifier}"`);
    return user;
  }

  async get(em: EntityManager, uniqueId: string): Promise<User | null> {
    return em.findOne(User, { uniqueId });
  }

  /** A user by ORCID or MFID; 404 when there is none. */
  async require(em: EntityManager, uniqueId: string): Promise<User> {
    const user = isOrcid(uniqueId) || isMfid(uniqueId) ? await this.get(em, uniqueId) : null;
    if (!user) throw notFound('User', uniqueId);
    return user;
  }

  validateNewUser(input: NewUser): FieldProblem[] {
    const problems: FieldProblem[] = [];
    if (input.uniqueId !== undefined && !isOrcid(input.uniqueId) && !isMfid(input.uniqueId)) {
      problems.push({ field: 'unique_id', message: 'must be an ORCID (0000-0000-0000-000X) or an MFID' });
    }
    if (input.uniqueId && isOrcid(input.uniqueId) && input.isServiceAccount) {
      problems.push({ field: 'unique_id', message: 'service accounts are keyed by MFID, not ORCID' });
    }
    if (input.username != null && !USERNAME.test(input.username)) {
      problems.push({
        field: 'username',
        message: 'letters, digits, ".", "_" and "-" only, at most 64 characters',
      });
    }
    if (input.email != null && !EMAIL.test(input.email)) {
      problems.push({ field: 'email', message: 'is not an email address' });
    }
    return problems;
  }

  /** Creates a user; unique_id defaults to a new MFID. 409 when an identifier is taken. */
  async create(em: EntityManager, input: NewUser): Promise<User> {
    assertNoProblems(this.validateNewUser(input));
    const user = em.create(User, {
      uniqueId: input.uniqueId ?? newMfid(),
      username: input.username ?? null,
      email: input.email ?? null,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      isServiceAccount: input.isServiceAccount ?? false,
      platformRole: input.platformRole ?? 'contributor',
    });
    await this.assertIdentifiersFree(em, user);
    // a unique_id issued to a record of another kind, or a concurrent create
    await uniquely(() => em.persist(user).flush(), 'the unique_id, username or email is taken');
    return user;
  }

  /** 409 when another user already holds the unique_id, username or email of `user`. */
  async assertIdentifiersFree(em: EntityManager, user: User, isNew = true): Promise<void> {
    const rows = await rawQuery<{ unique_id: string; username: string | null; email: string | null }>(
      em,
      `select unique_id, username, email from app_user
       where unique_id = ? or lower(username) = lower(?) or lower(email) = lower(?)`,
      [user.uniqueId, user.username ?? '', user.email ?? ''],
    );
    for (const row of rows) {
      if (row.unique_id === user.uniqueId) {
        if (isNew) throw conflict(`a user with unique_id ${user.uniqueId} already exists`);
        continue;
      }
      if (user.username && row.username?.toLowerCase() === user.username.toLowerCase()) {
        throw conflict(`username ${user.username} is taken`);
      }
      if (user.email && row.email?.toLowerCase() === user.email.toLowerCase()) {
        throw conflict(`email ${user.email} is already registered`);
      }
    }
  }

  /** Issues a new API key for a user. */
  async issueKey(
    em: EntityManager,
    user: User,
    opts: { label?: string; expiresAt?: Date; secret?: string } = {},
  ): Promise<IssuedKey> {
    const secret = opts.secret ?? generateApiKeySecret();
    const key = em.create(ApiKey, {
      uniqueId: newMfid(),
      hash: hashApiKey(secret),
      prefix: keyDisplayPrefix(secret),
      user,
      label: opts.label ?? null,
      expiresAt: opts.expiresAt ?? null,
    });
    await em.persist(key).flush();
    return { key, secret };
  }

  /** Revokes every active key of a user; returns how many were revoked. */
  async revokeKeys(em: EntityManager, user: User): Promise<number> {
    return em.nativeUpdate(ApiKey, { user, revokedAt: null }, { revokedAt: new Date() });
  }

  /**
   * The caller behind a bearer secret, or null for unknown, revoked and expired keys and disabled
   * users: one statement for the key and its user, which also evaluates `attach` (an SQL
   * expression over the user row `u`, e.g. the caller's access scope) and returns it as `attached`.
   * With `cache`, a key seen within its TTL runs no statement (see CallerCache for the bounds).
   */
  async authenticate(
    em: EntityManager,
    token: string,
    attach = 'null',
    cache?: CallerCache<AuthRow>,
  ): Promise<(Caller & { attached: unknown }) | null> {
    const hash = hashApiKey(token);
    let row = cache?.get(hash);
    if (!row) {
      const stamp = cache?.stamp();
      const rows = await rawQuery<AuthRow>(
        em,
        `select u.*, k.unique_id as k_unique_id, k.prefix as k_prefix, k.label as k_label,
           k.created_at as k_created_at, k.expires_at as k_expires_at, k.last_used_at as k_last_used_at,
           ${attach} as k_attached
         from api_key k join app_user u on u.unique_id = k.user_id
         where k.hash = ? and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())
           and u.disabled_at is null and u.pending_since is null`,
        [hash],
      );
      row = rows.at(0);
      if (!row) return null;
      const now = Date.now();
      if (!row.k_last_used_at || now - new Date(row.k_last_used_at).getTime() > 5 * 60_000) {
        // bookkeeping only: a failure here must not fail the request
        await em
          .nativeUpdate(ApiKey, { uniqueId: row.k_unique_id }, { lastUsedAt: new Date(now) })
          .catch(() => 0);
        row = { ...row, k_last_used_at: new Date(now) };
      }
      cache?.set(hash, row, row.k_expires_at ? new Date(row.k_expires_at) : null, stamp);
    }
    const {
      k_unique_id,
      k_prefix,
      k_label,
      k_created_at,
      k_expires_at,
      k_last_used_at: _lastUsed,
      k_attached,
      ...user
    } = row;
    const caller = {
      identity: { uniqueId: user.unique_id as string, platformRole: user.platform_role as PlatformRole },
      apiKey: {
        uniqueId: k_unique_id,
        prefix: k_prefix,
        label: k_label,
        createdAt: new Date(k_created_at),
        expiresAt: k_expires_at ? new Date(k_expires_at) : null,
      },
      token,
      attached: k_attached,
    } as Caller & { attached: unknown };
    // the entity only when the request asks for more than its identity (docs/performance.md, "The
    // cached caller"), made from a copy: the cached row is shared by the requests that hit it,
    // each with its own em
    let entity: User | undefined;
    Object.defineProperty(caller, 'user', {
      enumerable: true,
      configurable: true,
      get: () => (entity ??= em.map(User, { ...user })),
    });
    return caller;
  }
}
