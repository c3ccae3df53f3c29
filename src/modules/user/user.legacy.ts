import { isPlatformRole, PLATFORM_ROLES, type PlatformRole } from '../../core/auth/privilege';
import { validationError } from '../../core/errors';
import { Checked, echoed, NullableString, Type } from '../../core/rest/schema';
import type { RequestContext } from '../../core/context';
import type { User } from './user.entity';
import type { KeyListing } from './api-key-admin.service';
import type { UserPatch } from './user-admin.service';
import type { DatasetAccessReport } from './user.policy';

/** The public-safe user record (spec 2.1 rule 6): email only for yourself or platform admins. */
export function toPublicUser(
  ctx: RequestContext,
  user: Pick<User, 'uniqueId' | 'username' | 'firstName' | 'lastName' | 'email'>,
): Record<string, unknown> {
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
    is_platform_admin: user.platformRole === 'admin',
    platform_role: user.platformRole,
    creation_time: user.creationTime.toISOString(),
    modification_time: user.modificationTime.toISOString(),
  };
}

/**
 * The body of a profile or user update: `is_service_account` only where `allowServiceAccount`
 * (elsewhere it is echoed and ignored, like the identifiers).
 */
export function userPatchBody(allowServiceAccount: boolean, title: string) {
  const text = Type.Optional(NullableString());
  return Type.Object(
    {
      username: text,
      email: text,
      first_name: text,
      last_name: text,
      ...(allowServiceAccount ? { is_service_account: Type.Optional(Type.Boolean()) } : {}),
      ...echoed(
        allowServiceAccount
          ? ['id', 'unique_id', 'orcid']
          : ['id', 'unique_id', 'orcid', 'is_service_account'],
      ),
    },
    { additionalProperties: false, title },
  );
}

/** The service patch of a body checked by {@link userPatchBody}. */
export function parseUserPatch(body: Record<string, unknown>): UserPatch {
  const patch: UserPatch = {};
  const text = (f: string) => body[f] as string | null;
  if ('username' in body) patch.username = text('username');
  if ('email' in body) patch.email = text('email');
  if ('first_name' in body) patch.firstName = text('first_name');
  if ('last_name' in body) patch.lastName = text('last_name');
  if ('is_service_account' in body) patch.isServiceAccount = body.is_service_account as boolean;
  return patch;
}

/** The body of a platform-role change (of a user or a service account). */
export const platformRoleBody = (title: string) =>
  Type.Object(
    {
      platform_role: Checked<PlatformRole>('none, contributor or admin (required)', {
        enum: [...PLATFORM_ROLES],
      }),
    },
    { additionalProperties: false, title },
  );

/** The platform role of a role-change body: 422 naming `platform_role` unless one of the three. */
export function roleOf(body: unknown): PlatformRole {
  const role = (body as { platform_role?: unknown }).platform_role;
  if (!isPlatformRole(role))
    throw validationError('platform_role', `must be one of ${PLATFORM_ROLES.join(', ')}`);
  return role;
}

const nullable = NullableString();
/** A platform role (docs/access-control.md, "Platform roles and privilege mode"). */
export const PLATFORM_ROLE = Type.Union(
  PLATFORM_ROLES.map((r) => Type.Literal(r)),
  { title: 'PlatformRole' },
);
/** The fields of the public-safe user (email only for oneself and platform admins). */
const PUBLIC_USER_FIELDS = {
  unique_id: Type.String({ description: 'ORCID' }),
  username: nullable,
  first_name: nullable,
  last_name: nullable,
  email: Type.Optional(nullable),
};
/** The public-safe user and what every user record adds to it (project members add a role). */
export const USER_FIELDS = {
  ...PUBLIC_USER_FIELDS,
  orcid: Type.String(),
  is_service_account: Type.Boolean(),
};
/** The public-safe user (email only for oneself and platform admins). */
export const PUBLIC_USER = Type.Object(PUBLIC_USER_FIELDS, { title: 'PublicUser' });
/** A user record: the full record for oneself and platform admins, else the public-safe fields. */
export const USER = Type.Object(
  {
    ...USER_FIELDS,
    id: Type.Optional(Type.Integer()),
    is_platform_admin: Type.Optional(Type.Boolean()),
    platform_role: Type.Optional(PLATFORM_ROLE),
    creation_time: Type.Optional(Type.String({ format: 'date-time' })),
    modification_time: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { title: 'User' },
);

/** A service account as administrators see it (the client's admin record). */
export const SERVICE_ACCOUNT = Type.Object(
  {
    ...USER.properties,
    platform_role: PLATFORM_ROLE,
    api_key_status: Type.Object(
      {
        valid: Type.Boolean(),
        created_at: NullableString({ format: 'date-time' }),
        expires_at: NullableString({ format: 'date-time' }),
      },
      { description: 'the newest unrevoked key (valid false, dates null, when there is none)' },
    ),
  },
  { title: 'ServiceAccountAdmin' },
);

export function toLegacyServiceAccount(
  ctx: RequestContext,
  user: User,
  status: { valid: boolean; createdAt: Date | null; expiresAt: Date | null } | undefined,
): Record<string, unknown> {
  return {
    ...toLegacyUser(ctx, user),
    platform_role: user.platformRole,
    api_key_status: {
      valid: status?.valid ?? false,
      created_at: status?.createdAt?.toISOString() ?? null,
      expires_at: status?.expiresAt?.toISOString() ?? null,
    },
  };
}

/** Whether an API key is valid, and when it expires. */
export const KEY_STATUS = Type.Object(
  {
    valid: Type.Boolean(),
    created_at: NullableString({ format: 'date-time' }),
    expires_at: NullableString({ format: 'date-time' }),
  },
  { title: 'KeyStatus' },
);

/** An API key as its holder and platform administrators see it: never the secret or its hash. */
export const API_KEY = Type.Object(
  {
    unique_id: Type.String({ description: 'the key id' }),
    prefix: Type.String({ description: 'the first characters of the secret' }),
    user_id: Type.String({ description: "the holder's ORCID or MFID" }),
    label: NullableString(),
    status: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('revoked')]),
    created_at: Type.String({ format: 'date-time' }),
    expires_at: NullableString({ format: 'date-time' }),
    revoked_at: NullableString({ format: 'date-time' }),
    last_used_at: NullableString({ format: 'date-time' }),
  },
  { title: 'ApiKey' },
);

/** A list of keys: the live ones first, then the newest (at most 100). */
export const API_KEYS = Type.Object({ items: Type.Array(API_KEY) }, { title: 'ApiKeyList' });

export function toLegacyKey(k: KeyListing): Record<string, unknown> {
  return {
    unique_id: k.keyId,
    prefix: k.prefix,
    user_id: k.userId,
    label: k.label,
    status: k.status,
    created_at: k.createdAt.toISOString(),
    expires_at: k.expiresAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * `GET /users/{user}/datasets/{id}`: `{read, write}` on `/api/v2` (the 3.1 client), plus the 3.2
 * client's `resource_mfid`, `user_id` and `effective_access` on `/api/v3`.
 */
export function toLegacyDatasetAccess(
  ctx: RequestContext,
  a: DatasetAccessReport & { userId: string; datasetId: string },
): Record<string, unknown> {
  const flags = { read: a.read, write: a.write };
  if (ctx.wireVersion < 3) return flags;
  return { resource_mfid: a.datasetId, user_id: a.userId, effective_access: a.effective, ...flags };
}
