import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import { keyDisplayPrefix, KEY_PREFIX } from '../../core/auth/api-keys';
import type { EventService } from '../outbox/event.service';
import type { EventType } from '../outbox/domain-event';
import type { PrivilegeMode } from '../../core/auth/privilege';

/**
 * Sign-ins and sign-outs in the history of the account (docs/authentication.md, docs/events.md):
 * events of resource type `user` whose resource is the account, read by its owner and platform
 * admins. Never a secret: a failed key sign-in names the key by its display prefix only.
 */
export class SignInAudit {
  constructor(private readonly events: EventService) {}

  async signedIn(
    em: EntityManager,
    userId: string,
    details: { method: string; sessionId: string; address: string },
  ): Promise<void> {
    await this.record(em, 'account.signed_in', userId, userId, {
      method: details.method,
      session_id: details.sessionId,
      address: details.address,
    });
  }

  async signedOut(em: EntityManager, userId: string, sessionId: string, address: string): Promise<void> {
    await this.record(em, 'account.signed_out', userId, userId, { session_id: sessionId, address });
  }

  /**
   * A session switched privilege mode (`elevated`: the administrator's page elevated;
   * `normal`: it returned to the member's view). Written in the caller's transaction `tx`, the one
   * that changed the session, so the switch and its record stand or fall together.
   */
  async modeChanged(
    tx: EntityManager,
    userId: string,
    mode: PrivilegeMode,
    details: { sessionId: string; address: string },
  ): Promise<void> {
    await this.record(
      tx,
      mode === 'elevated' ? 'account.elevated' : 'account.elevation_dropped',
      userId,
      userId,
      {
        session_id: details.sessionId,
        address: details.address,
      },
    );
  }

  /**
   * The account a wrong key was meant for, when its display prefix names exactly one key (the
   * account whose key was guessed at); null otherwise.
   */
  async accountOfKey(em: EntityManager, key: string): Promise<string | null> {
    if (!key.startsWith(KEY_PREFIX)) return null;
    const rows = await rawQuery<{ user_id: string }>(
      em,
      'select user_id from api_key where prefix = ? limit 2',
      [keyDisplayPrefix(key)],
    );
    return rows.length === 1 ? rows[0].user_id : null;
  }

  /** A refused sign-in, in the history of the account it was for. */
  async failed(
    em: EntityManager,
    userId: string,
    details: { method: string; reason: string; address: string; keyPrefix?: string },
  ): Promise<void> {
    await this.record(em, 'account.sign_in_failed', null, userId, {
      method: details.method,
      reason: details.reason,
      address: details.address,
      ...(details.keyPrefix ? { key_prefix: details.keyPrefix } : {}),
    });
  }

  /** One event in the account's history, in a transaction of its own (or `em`'s, when it is one). */
  private async record(
    em: EntityManager,
    type: Extract<EventType, `account.${string}`>,
    actorId: string | null,
    userId: string,
    payload: Record<string, unknown>,
  ): Promise<void> {
    await em.transactional((tx) =>
      this.events.emit(tx, {
        type,
        actorId,
        resourceId: userId,
        resourceType: 'user',
        projectMfid: null,
        payload,
      }),
    );
  }
}
