import type { RequestContext } from '../../core/context';
import { notFound, validationError } from '../../core/errors';
import { isMfid } from '../../core/ids';
import { offsetRows } from '../../core/db/page';
import { and, likeEscape, sql } from '../../core/db/sql';
import { User } from './user.entity';
import type { IssuedKey, UserService } from './user.service';
import type { UserPolicy } from './user.policy';
import type { ApiKeyAdminService } from './api-key-admin.service';

const SERVICE_ACCOUNT_NAME = /^[a-z0-9_-]{2,64}$/;

/**
 * Service accounts, for platform administrators: made with their first key, their key rotated,
 * looked up and listed. Their platform role is set like a person's (`UserAdminService`).
 */
export class ServiceAccountService {
  constructor(
    private readonly users: UserService,
    readonly policy: UserPolicy,
    private readonly keys: ApiKeyAdminService,
  ) {}

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
      await this.keys.keyCreatedIn(em, ctx.userId, issued.key);
      return { ...issued, user };
    });
  }

  /** Revokes a service account's keys and issues a new one (platform admins). */
  async rotateServiceAccountKey(ctx: RequestContext, uniqueId: string): Promise<IssuedKey & { user: User }> {
    this.policy.assertPlatformAdmin(ctx, 'rotate service account keys');
    const user = await this.users.get(ctx.em, uniqueId);
    if (!user?.isServiceAccount) throw notFound('Service account', uniqueId);
    return ctx.em.transactional(async (em) => {
      await this.keys.revokeAllKeysIn(em, ctx.userId, user.uniqueId);
      const issued = await this.users.issueKey(em, user, { label: 'service account (rotated)' });
      await this.keys.keyCreatedIn(em, ctx.userId, issued.key);
      return { ...issued, user };
    });
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
}
