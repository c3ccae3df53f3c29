import { Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { Viewer } from './account.types';
import { accountCapabilities } from '../permission/platform';

@Resolver(() => Viewer)
export class AccountResolver {
  @Query(() => Viewer, { description: 'Who you are: your user record, key, projects and roles.' })
  async me(@Ctx() ctx: RequestContext): Promise<Viewer> {
    const w = await ctx.services.account.whoami(ctx);
    return {
      user: w.user,
      orcid: w.user.uniqueId,
      isPlatformAdmin: ctx.isPlatformAdmin,
      platformRole: w.user.platformRole,
      effectivePrivilegeMode: ctx.privilegeMode,
      canElevate: ctx.canElevate,
      capabilities: accountCapabilities(ctx),
      accessGroupIds: w.accessGroups,
      apiKey: {
        uniqueId: w.apiKey.uniqueId,
        prefix: w.apiKey.prefix,
        label: w.apiKey.label ?? null,
        createdAt: w.apiKey.createdAt,
        expiresAt: w.apiKey.expiresAt ?? null,
      },
      projects: w.projects.map((p) => ({ project: p.project, role: p.role, user: w.user })),
    };
  }
}
