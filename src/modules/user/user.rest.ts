import type { RequestContext } from '../../core/context';
import type { User } from './user.entity';

/** The public-safe user record (spec 2.1 rule 6): email only for yourself or platform admins. */
export function toPublicUser(ctx: RequestContext, user: User): Record<string, unknown> {
  return {
    unique_id: user.uniqueId,
    username: user.username ?? null,
    first_name: user.firstName ?? null,
    last_name: user.lastName ?? null,
    ...(ctx.services.user.canSeeEmail(ctx, user) ? { email: user.email ?? null } : {}),
  };
}

/** The full user record, as the account routes return it to its owner. */
export function toLegacyUser(ctx: RequestContext, user: User): Record<string, unknown> {
  return {
    ...toPublicUser(ctx, user),
    id: user.id,
    orcid: user.uniqueId,
    is_service_account: user.isServiceAccount,
    is_platform_admin: user.isPlatformAdmin,
    creation_time: user.creationTime.toISOString(),
    modification_time: user.modificationTime.toISOString(),
  };
}
