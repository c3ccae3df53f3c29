import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import { randomUUID } from 'node:crypto';
import { generateSessionSecret, hashSessionSecret } from '../../core/auth/sessions';
import { canElevate, type PlatformRole, type PrivilegeMode } from '../../core/auth/privilege';
import { User } from '../user/user.entity';
import { UserSession } from './session.entity';

/** How long sessions live (configuration: SESSION_IDLE_MINUTES, SESSION_MAX_HOURS). */
export interface SessionLifetimes {
  idleMinutes: number;
  maxHours: number;
}

export interface StartedSession {
  session: UserSession;
  /** the cookie's value: shown to the browser once, never stored */
  secret: string;
}

/** `lastSeenAt` is written at most this often per session (the idle limit is this precise). */
const TOUCH_EVERY_MS = 60_000;

/** Browser sessions: started at sign-in, looked up on every request that carries the cookie. */
export class SessionService {
  constructor(private readonly lifetimes: SessionLifetimes) {}

  /**
   * Starts a session for `user` (a new secret every time: a sign-in never reuses an id), ending
   * the session `previous` (the secret of the cookie the sign-in came with) when there is one.
   */
  async start(em: EntityManager, user: User, method: string, previous?: string): Promise<StartedSession> {
    const secret = generateSessionSecret();
    const now = Date.now();
    const session = em.create(UserSession, {
      uniqueId: randomUUID(),
      hash: hashSessionSecret(secret),
      user,
      method,
      createdAt: new Date(now),
      lastSeenAt: new Date(now),
      expiresAt: new Date(now + this.lifetimes.maxHours * 3_600_000),
    });
    await em.transactional(async (tx) => {
      if (previous) await this.end(tx, previous);
      tx.persist(session);
      await tx.flush();
    });
    return { session, secret };
  }

  /**
   * The caller behind a session secret, or null when the session is unknown, signed out,
   * revoked, idle too long, past its absolute lifetime, or its user is disabled or pending: one
   * statement, which also evaluates `attach` over the user row `u` (the caller's access scope).
   */
  async authenticate(
    em: EntityManager,
    secret: string,
    attach = 'null',
  ): Promise<(Caller & { attached: unknown }) | null> {
    const rows = await rawQuery<
      Record<string, unknown> & {
        s_unique_id: string;
        s_created_at: string | Date;
        s_expires_at: string | Date;
        s_last_seen_at: string | Date;
        s_privilege_mode: PrivilegeMode;
        s_attached: unknown;
      }
    >(
      em,
      `select u.*, s.unique_id as s_unique_id, s.created_at as s_created_at, s.expires_at as s_expires_at,
         s.last_seen_at as s_last_seen_at, s.privilege_mode as s_privilege_mode, ${attach} as s_attached
       from user_session s join app_user u on u.unique_id = s.user_id
       where s.hash = ? and s.revoked_at is null and s.expires_at > now()
         and s.last_seen_at > now() - make_interval(mins => ?)
         and u.disabled_at is null and u.pending_since is null`,
      [hashSessionSecret(secret), this.lifetimes.idleMinutes],
    );
    const row = rows.at(0);
    if (!row) return null;
    const { s_unique_id, s_created_at, s_expires_at, s_last_seen_at, s_privilege_mode, s_attached, ...user } =
      row;
    if (Date.now() - new Date(s_last_seen_at).getTime() > TOUCH_EVERY_MS) {
      // bookkeeping of the idle limit: a failure here must not fail the request
      await em
        .nativeUpdate(UserSession, { uniqueId: s_unique_id }, { lastSeenAt: new Date() })
        .catch(() => 0);
    }
    return {
      user: em.map(User, user),
      apiKey: {
        uniqueId: s_unique_id,
        prefix: 'session',
        label: 'browser session',
        createdAt: new Date(s_created_at),
        expiresAt: new Date(s_expires_at),
      },
      token: '',
      sessionId: s_unique_id,
      sessionMode: s_privilege_mode,
      attached: s_attached,
    };
  }

  /**
   * Switches the active session whose cookie holds `secret` to `mode`, inside the caller's
   * transaction `tx` (the session row locked, its user's row shared, so the check and the write
   * see one state). `ended` when no active session has that secret (or its user is disabled or
   * pending); `forbidden` when `elevated` is asked for a user whose stored platform role may not
   * elevate (nothing changes); otherwise the session and whether its mode changed.
   */
  async setMode(
    tx: EntityManager,
    secret: string,
    mode: PrivilegeMode,
  ): Promise<'ended' | 'forbidden' | { sessionId: string; userId: string; changed: boolean }> {
    const rows = await rawQuery<{
      unique_id: string;
      user_id: string;
      privilege_mode: PrivilegeMode;
      platform_role: PlatformRole;
    }>(
      tx,
      `select s.unique_id, s.user_id, s.privilege_mode, u.platform_role
       from user_session s join app_user u on u.unique_id = s.user_id
       where s.hash = ? and s.revoked_at is null and s.expires_at > now()
         and s.last_seen_at > now() - make_interval(mins => ?)
         and u.disabled_at is null and u.pending_since is null
       for update of s for share of u`,
      [hashSessionSecret(secret), this.lifetimes.idleMinutes],
    );
    const row = rows.at(0);
    if (!row) return 'ended';
    if (mode === 'elevated' && !canElevate(row.platform_role)) return 'forbidden';
    const changed = row.privilege_mode !== mode;
    if (changed) {
      await rawQuery(tx, 'update user_session set privilege_mode = ? where unique_id = ?', [
        mode,
        row.unique_id,
      ]);
    }
    return { sessionId: row.unique_id, userId: row.user_id, changed };
  }

  /** Ends the session whose cookie holds `secret` (sign-out); null when none was active. */
  async end(em: EntityManager, secret: string): Promise<{ sessionId: string; userId: string } | null> {
    const rows = await rawQuery<{ unique_id: string; user_id: string }>(
      em,
      `update user_session set revoked_at = now() where hash = ? and revoked_at is null
       returning unique_id, user_id`,
      [hashSessionSecret(secret)],
    );
    return rows.length ? { sessionId: rows[0].unique_id, userId: rows[0].user_id } : null;
  }

  /** Ends every active session of a user (sign out everywhere, disabling); returns how many. */
  async endAll(em: EntityManager, userId: string): Promise<number> {
    return em.nativeUpdate(
      UserSession,
      { user: userId, revokedAt: null, expiresAt: { $gt: new Date() } },
      { revokedAt: new Date() },
    );
  }

  /** The active sessions of a user, newest first (never their secrets). */
  async active(em: EntityManager, userId: string): Promise<UserSession[]> {
    return em.find(
      UserSession,
      {
        user: userId,
        revokedAt: null,
        expiresAt: { $gt: new Date() },
        lastSeenAt: { $gt: new Date(Date.now() - this.lifetimes.idleMinutes * 60_000) },
      },
      { orderBy: { createdAt: 'desc' }, limit: 1000 },
    );
  }
}
