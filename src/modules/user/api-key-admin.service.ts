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
import { rawQuery } from '../../core/db/raw';
import { ApiKey } from './api-key.entity';
import type { User } from './user.entity';
import type { UserService } from './user.service';
import type { UserPolicy } from './user.policy';
import type { EventService } from '../outbox/event.service';

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
 * API keys as use cases: key status, a person's own keys (and platform administrators: anyone's),
 * revoking a user's keys, the operator's listing and revocation (the admin command line), and the
 * key events, written inside the caller's transaction (`keyCreatedIn`, `revokeAllKeysIn`: service
 * accounts' keys are issued and rotated by user administration through them).
 */
export class ApiKeyAdminService {
  constructor(
    private readonly users: UserService,
    private readonly policy: UserPolicy,
    private readonly events: EventService,
  ) {}

  /** A user by ORCID, MFID, username or email; 404 when there is none. */
  private async resolve(ctx: RequestContext, id: string): Promise<User> {
    const user = await this.users.resolve(ctx.em, id);
    if (!user) throw notFound('User', id);
    return user;
  }

  /** The status of the newest active key of the user with this ORCID or MFID (platform admins; or oneself). */
  async keyStatus(ctx: RequestContext, uniqueId: string): Promise<KeyStatus> {
    const user = await this.users.require(ctx.em, uniqueId);
    this.policy.assertSelfOrAdmin(ctx, user, "verify another user's key");
    const key = await ctx.em.findOne(ApiKey, { user, revokedAt: null }, { orderBy: { createdAt: 'desc' } });
    const valid = !!key && (!key.expiresAt || key.expiresAt.getTime() > Date.now());
    return { valid, createdAt: key?.createdAt ?? null, expiresAt: key?.expiresAt ?? null };
  }

  /** Revokes every key of a user (platform administrators); their next request is 401. */
  async revokeApiKeys(ctx: RequestContext, uniqueId: string): Promise<number> {
    this.policy.assertPlatformAdmin(ctx, "revoke users' API keys");
    const user = await this.resolve(ctx, uniqueId);
    return ctx.em.transactional(
      async (tx) => (await this.revokeAllKeysIn(tx, ctx.userId, user.uniqueId)).length,
    );
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
  async keyCreatedIn(tx: EntityManager, actorId: string, key: ApiKey): Promise<void> {
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
  async revokeAllKeysIn(
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
