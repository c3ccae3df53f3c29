import { Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { nodeType } from '../../core/graphql/node';
import { isMfid } from '../../core/ids';
import type { CallerKey } from '../../core/context';
import { ApiKeyInfo, Viewer } from './account.types';
import { accountCapabilities } from '../permission/platform';

const keyInfo = (key: CallerKey): ApiKeyInfo => ({
  uniqueId: key.uniqueId,
  prefix: key.prefix,
  label: key.label ?? null,
  createdAt: key.createdAt,
  expiresAt: key.expiresAt ?? null,
});

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
      apiKey: keyInfo(w.apiKey),
      projects: w.projects.map((p) => ({ project: p.project, role: p.role, user: w.user })),
    };
  }
}

/** API keys as `Node`s: the caller's own unrevoked keys only (another user's key is null, like a missing one). */
export const API_KEY_NODE = nodeType<ApiKeyInfo>(
  'ApiKeyInfo',
  isMfid,
  (k) => k.uniqueId,
  async (ctx, keys) => (await ctx.services.user.ownKeys(ctx, keys)).map(keyInfo),
);
