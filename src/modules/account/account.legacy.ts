import type { RequestContext } from '../../core/context';
import { PRIVILEGE_MODES } from '../../core/auth/privilege';
import { Type } from '../../core/rest/schema';
import { accountCapabilities } from '../permission/platform';
import { PLATFORM_ROLE, toLegacyUser } from '../user/user.legacy';

/** How the caller is authorized on this request (the client's `AccountAuthorization`). */
export const AUTHORIZATION = Type.Object(
  {
    platform_role: PLATFORM_ROLE,
    effective_privilege_mode: Type.Union(
      PRIVILEGE_MODES.map((m) => Type.Literal(m)),
      { description: 'elevated: acting as a platform administrator on this request' },
    ),
    can_elevate: Type.Boolean({ description: 'whether Crucible-Privilege-Mode: elevated is allowed' }),
  },
  { title: 'AccountAuthorization' },
);

/** What the caller may create on this request (the client's `AccountCapabilities`). */
export const ACCOUNT_CAPABILITIES = Type.Object(
  {
    can_manage_service_accounts: Type.Boolean(),
    can_manage_users: Type.Boolean(),
    can_create_project: Type.Boolean(),
    can_register_instrument: Type.Boolean(),
    can_create_sample: Type.Boolean(),
    can_create_dataset: Type.Boolean(),
    can_create_for_others: Type.Boolean(),
  },
  { title: 'AccountCapabilities' },
);

/**
 * `/account/profile`: the caller's user record (its `platform_role` the stored one), how they
 * act on this request and what they may create in it.
 */
export function toLegacyProfile(ctx: RequestContext): Record<string, unknown> {
  const c = accountCapabilities(ctx);
  return {
    ...toLegacyUser(ctx, ctx.caller.user),
    authorization: {
      platform_role: ctx.caller.user.platformRole,
      effective_privilege_mode: ctx.privilegeMode,
      can_elevate: ctx.canElevate,
    },
    capabilities: {
      can_manage_service_accounts: c.canManageServiceAccounts,
      can_manage_users: c.canManageUsers,
      can_create_project: c.canCreateProject,
      can_register_instrument: c.canRegisterInstrument,
      can_create_sample: c.canCreateSample,
      can_create_dataset: c.canCreateDataset,
      can_create_for_others: c.canCreateForOthers,
    },
  };
}
