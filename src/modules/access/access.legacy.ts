import { NullableString, Type } from '../../core/rest/schema';
import type { RequestContext } from '../../core/context';
import { toPublicUser } from '../user/user.legacy';
import { toLegacyProjectRef } from '../project/project.legacy';
import type { AccessListing, GrantView } from './grant.service';

/** A grant on the wire (spec 2.6 rule 2): principal and permission, with display fields. */
export function toLegacyGrant(ctx: RequestContext, g: GrantView): Record<string, unknown> {
  const p = g.principal;
  return {
    resource_id: g.resourceId,
    resource_type: g.resourceType,
    principal_type: p.type,
    principal_id: p.id,
    principal_name: p.name,
    permission: g.permission,
    ...(p.user ? { user: toPublicUser(ctx, p.user) } : {}),
    ...(p.project ? { project: toLegacyProjectRef(p.project) } : {}),
    granted_by: g.grantedBy,
    creation_time: g.creationTime.toISOString(),
  };
}

export async function toLegacyAccess(
  ctx: RequestContext,
  a: AccessListing,
): Promise<Record<string, unknown>> {
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
    user: Type.Optional(Type.Object({})),
    project: Type.Optional(Type.Object({})),
    granted_by: NullableString(),
    creation_time: Type.String({ format: 'date-time' }),
  },
  { title: 'Grant' },
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
