import { NullableString, Type } from '../../core/rest/schema';
import type { RequestContext } from '../../core/context';
import { toPublicUser } from '../user/user.legacy';
import { toLegacyProjectRef } from '../project/project.legacy';
import type { User } from '../user/user.entity';
import type { AccessListing, GrantView, Principal } from './grant.service';

/** A user's display name: first and last name, else the username. */
function displayName(user: Pick<User, 'firstName' | 'lastName' | 'username'>): string | null {
  const full = [user.firstName, user.lastName].filter((n) => n && n.trim()).join(' ');
  return full || (user.username ?? null);
}

/**
 * The principal type on the wire: on `/api/v3`, in the 3.2 client's vocabulary (`AccessGrant`:
 * user, service_account, project, instrument, public, system, unknown), so a service account is
 * `service_account` and a named access group, which that client has no kind for, `unknown`.
 */
function wirePrincipalType(ctx: RequestContext, p: Principal): string {
  if (ctx.wireVersion < 3) return p.type;
  if (p.type === 'user') return p.user?.isServiceAccount ? 'service_account' : 'user';
  return p.type === 'group' ? 'unknown' : p.type;
}

/** A grant on the wire (spec 2.6 rule 2): principal and permission, with display fields. */
export function toLegacyGrant(ctx: RequestContext, g: GrantView): Record<string, unknown> {
  const p = g.principal;
  return {
    resource_id: g.resourceId,
    resource_type: g.resourceType,
    principal_type: wirePrincipalType(ctx, p),
    principal_id: p.id,
    principal_name: p.name,
    permission: g.permission,
    // the 3.2 client's `AccessGrant` names: the slug and a name to show
    slug: p.name,
    display_name: p.user ? displayName(p.user) : (p.project?.title ?? p.name),
    ...(p.user ? { user: toPublicUser(ctx, p.user) } : {}),
    ...(p.project ? { project: toLegacyProjectRef(p.project) } : {}),
    granted_by: g.grantedBy,
    creation_time: g.creationTime.toISOString(),
  };
}

/** The public flag as an entry of the access list (`PUT /resources/{id}/access/public` answers it). */
export function toPublicEntry(resource: { uniqueId: string; type: string }): Record<string, unknown> {
  return {
    resource_id: resource.uniqueId,
    resource_type: resource.type,
    principal_type: 'public',
    principal_id: 'public',
    principal_name: null,
    permission: 'viewer',
    slug: null,
    display_name: 'Everyone',
    granted_by: null,
    creation_time: null,
  };
}

/**
 * The LIST form of a resource's access (`/api/v3`, the 3.2 client's `list_access`): the owner
 * (permission `owner`), then the grants the caller may see (every grant for a caller with
 * `manage`, else those reaching them), then `public` when the record is public.
 */
async function toAccessList(ctx: RequestContext, a: AccessListing): Promise<Record<string, unknown>[]> {
  const owner = await ctx.loaders.user.load(a.ownerId);
  const ownerPrincipal: Principal = {
    type: 'user',
    id: a.ownerId,
    name: owner?.username ?? null,
    ...(owner ? { user: owner } : {}),
  };
  return [
    {
      resource_id: a.resource.uniqueId,
      resource_type: a.resource.type,
      principal_type: wirePrincipalType(ctx, ownerPrincipal),
      principal_id: a.ownerId,
      principal_name: ownerPrincipal.name,
      permission: 'owner',
      slug: ownerPrincipal.name,
      display_name: owner ? displayName(owner) : null,
      ...(owner ? { user: toPublicUser(ctx, owner) } : {}),
      granted_by: null,
      creation_time: null,
    },
    ...a.grants.map((g) => toLegacyGrant(ctx, g)),
    ...(a.public ? [toPublicEntry(a.resource)] : []),
  ];
}

/**
 * `GET /resources/{id}/access`: on `/api/v2` the object (owner, public flag, the caller's
 * effective access, the grants and whether they are complete); on `/api/v3` the list the 3.2
 * client reads.
 */
export async function toLegacyAccess(
  ctx: RequestContext,
  a: AccessListing,
): Promise<Record<string, unknown> | Record<string, unknown>[]> {
  if (ctx.wireVersion >= 3) return toAccessList(ctx, a);
  const owner = await ctx.loaders.user.load(a.ownerId);
  return {
    unique_id: a.resource.uniqueId,
    resource_type: a.resource.type,
    owner_orcid: a.ownerId,
    owner: owner ? toPublicUser(ctx, owner) : null,
    public: a.public,
    effective_access: a.effective,
    grants_complete: a.complete,
    grants: a.grants.map((g) => toLegacyGrant(ctx, g)),
  };
}

/** The legacy access-group entry of a grant (reference #60/#61). */
export function toLegacyGroup(g: GrantView): Record<string, unknown> {
  return {
    group_name: g.principal.type === 'user' ? g.principal.id : (g.principal.name ?? g.principal.id),
    principal_type: g.principal.type,
    principal_id: g.principal.id,
    read: true,
    write: g.permission !== 'viewer',
    permission: g.permission,
  };
}

export const GRANT = Type.Object(
  {
    resource_id: Type.String(),
    resource_type: Type.String(),
    principal_type: Type.String(),
    principal_id: Type.String(),
    principal_name: NullableString(),
    permission: Type.String(),
    slug: NullableString({ description: 'the username, project slug or group name' }),
    display_name: NullableString({ description: 'a name to show' }),
    user: Type.Optional(Type.Object({})),
    project: Type.Optional(Type.Object({})),
    granted_by: NullableString(),
    creation_time: Type.String({ format: 'date-time' }),
  },
  { title: 'Grant' },
);
/** An entry of the access list (`/api/v3`): a grant, the owner or the public flag. */
export const ACCESS_ENTRY = Type.Object(
  {
    resource_id: Type.String(),
    resource_type: Type.String(),
    principal_type: Type.String({
      description: 'user, service_account, project, public or unknown (a named group) on /api/v3',
    }),
    principal_id: Type.String(),
    principal_name: NullableString(),
    permission: Type.String({ description: 'viewer, contributor, editor, admin or owner' }),
    slug: NullableString(),
    display_name: NullableString(),
    user: Type.Optional(Type.Object({})),
    project: Type.Optional(Type.Object({})),
    granted_by: NullableString(),
    creation_time: NullableString({ format: 'date-time' }),
  },
  { title: 'AccessEntry' },
);
export const ACCESS = Type.Object(
  {
    unique_id: Type.String(),
    resource_type: Type.String(),
    owner_orcid: Type.String(),
    owner: Type.Union([Type.Object({}), Type.Null()]),
    public: Type.Boolean(),
    effective_access: Type.Unknown(),
    grants_complete: Type.Boolean(),
    grants: Type.Array(GRANT),
  },
  { title: 'Access' },
);
export const ACCESS_GROUP = Type.Object(
  {
    group_name: Type.String(),
    principal_type: Type.String(),
    principal_id: Type.String(),
    read: Type.Boolean(),
    write: Type.Boolean(),
    permission: Type.String(),
  },
  { title: 'AccessGroup' },
);
