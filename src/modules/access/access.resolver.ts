import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { User } from '../user/user.entity';
import type { RequestContext } from '../../core/context';
import { ResourceUnion } from '../resource/resource.types';
import { toProjectRef } from '../project/project.types';
import type { GrantView } from './grant.service';
import { AccessGrantType, GrantKindEnum, PermissionLevelEnum, ResourceAccess } from './access.types';

function toGrant(g: GrantView): AccessGrantType {
  const p = g.principal;
  return {
    resourceId: g.resourceId,
    resourceType: g.resourceType,
    principalType: p.type,
    principalId: p.id,
    principalName: p.name,
    permission: g.permission as PermissionLevelEnum,
    user: p.user ?? null,
    project: toProjectRef(p.project),
    grantedBy: g.grantedBy,
    creationTime: g.creationTime,
  };
}

const ID_ARG = {
  description: 'The MFID of a dataset, sample, project or instrument (projects also by slug).',
};

@Resolver()
export class AccessResolver {
  @Query(() => ResourceAccess, {
    description:
      'Who may access a resource: any reader gets their own effective access; the full grant list needs admin permission on it.',
  })
  async resourceAccess(
    @Arg('id', () => ID, ID_ARG) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<ResourceAccess> {
    const a = await ctx.services.grant.list(ctx, id);
    return {
      uniqueId: a.resource.uniqueId,
      resourceType: a.resource.type,
      ownerOrcid: a.ownerId,
      owner: await ctx.loaders.user.load(a.ownerId),
      public: a.public,
      effectiveAccess: a.effective as PermissionLevelEnum | null,
      grantsComplete: a.complete,
      grants: a.grants.map(toGrant),
    };
  }

  @Mutation(() => AccessGrantType, {
    description:
      'Grants a permission (creating or changing the grant); needs admin permission. owner is a CONFLICT: use transferOwnership.',
  })
  async setAccess(
    @Arg('id', () => ID, ID_ARG) id: string,
    @Arg('kind', () => GrantKindEnum, { description: 'Who the grant is for.' }) kind: GrantKindEnum,
    @Arg('principal', {
      description: 'The user (ORCID, MFID, username, email), project (MFID, slug) or group name.',
    })
    principal: string,
    @Arg('permission', () => PermissionLevelEnum, { description: 'viewer, contributor, editor or admin.' })
    permission: PermissionLevelEnum,
    @Ctx() ctx: RequestContext,
  ): Promise<AccessGrantType> {
    return toGrant(await ctx.services.grant.set(ctx, id, kind, principal, permission));
  }

  @Mutation(() => Boolean, {
    description: 'Revokes a grant (NOT_FOUND when there is none); needs admin permission.',
  })
  async revokeAccess(
    @Arg('id', () => ID, ID_ARG) id: string,
    @Arg('kind', () => GrantKindEnum, { description: 'Who the grant is for.' }) kind: GrantKindEnum,
    @Arg('principal', { description: 'The user, project or group, as for setAccess.' }) principal: string,
    @Ctx() ctx: RequestContext,
  ): Promise<boolean> {
    await ctx.services.grant.revoke(ctx, id, kind, principal);
    return true;
  }

  @Mutation(() => ResourceUnion, {
    description: 'Makes a dataset, sample or instrument public or private; needs admin permission on it.',
  })
  async setPublic(
    @Arg('id', () => ID, ID_ARG) id: string,
    @Arg('public', { description: 'true: every authenticated user may read it; false: private.' })
    value: boolean,
    @Ctx() ctx: RequestContext,
  ) {
    const r = await ctx.services.resource.setPublic(ctx, id, value);
    ctx.canonical.add(r.record);
    return r.record;
  }
}

@Resolver(() => AccessGrantType)
export class AccessGrantResolver {
  @FieldResolver(() => User, {
    nullable: true,
    description: 'Who granted it, public-safe (grantedBy names them); null when not recorded.',
  })
  granter(@Root() g: AccessGrantType, @Ctx() ctx: RequestContext) {
    return g.grantedBy ? ctx.loaders.user.load(g.grantedBy) : null;
  }
}
