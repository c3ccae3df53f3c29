import type { RequestContext } from '../../core/context';
import { optionalBool, optionalString, pickFields, type Body } from '../../core/rest/body';
import type { User } from './user.entity';
import type { UserPatch } from './user-admin.service';

/** The public-safe user record (spec 2.1 rule 6): email only for yourself or platform admins. */
export function toPublicUser(ctx: RequestContext, user: User): Record<string, unknown> {
  return {
    unique_id: user.uniqueId,
    username: user.username ?? null,
    first_name: user.firstName ?? null,
    last_name: user.lastName ?? null,
    ...(ctx.services.user.policy.canSeeEmail(ctx, user) ? { email: user.email ?? null } : {}),
  };
}

/** The full user record for oneself and platform admins; others get the public-safe record. */
export function toLegacyUser(ctx: RequestContext, user: User): Record<string, unknown> {
  if (!ctx.services.user.policy.isSelfOrAdmin(ctx, user)) {
    return { ...toPublicUser(ctx, user), orcid: user.uniqueId, is_service_account: user.isServiceAccount };
  }
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

const PATCH_FIELDS = ['username', 'email', 'first_name', 'last_name', 'is_service_account'] as const;

export function parseUserPatch(body: Body, allowServiceAccount: boolean): UserPatch {
  const picked = pickFields(body, allowServiceAccount ? PATCH_FIELDS : PATCH_FIELDS.slice(0, 4), {
    ignore: allowServiceAccount
      ? ['id', 'unique_id', 'orcid']
      : ['id', 'unique_id', 'orcid', 'is_service_account'],
  });
  const patch: UserPatch = {};
  if ('username' in picked) patch.username = optionalString(picked, 'username');
  if ('email' in picked) patch.email = optionalString(picked, 'email');
  if ('first_name' in picked) patch.firstName = optionalString(picked, 'first_name');
  if ('last_name' in picked) patch.lastName = optionalString(picked, 'last_name');
  if ('is_service_account' in picked) patch.isServiceAccount = optionalBool(picked, 'is_service_account');
  return patch;
}
