import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { nodeType } from '../../core/graphql/node';
import { isMfid } from '../../core/ids';
import type { CallerKey } from '../../core/context';
import { ApiKeyInfo, IssuedApiKey, Viewer } from './account.types';
import type { KeyListing } from '../user/api-key-admin.service';
import type { ApiKey } from '../user/api-key.entity';
import { accountCapabilities } from '../permission/platform';

const keyInfo = (key: CallerKey): ApiKeyInfo => ({
  uniqueId: key.uniqueId,
  prefix: key.prefix,
  label: key.label ?? null,
  createdAt: key.createdAt,
  expiresAt: key.expiresAt ?? null,
  status: 'active',
  revokedAt: null,
  lastUsedAt: null,
  userId: null,
});

const listed = (k: KeyListing): ApiKeyInfo => ({
  uniqueId: k.keyId,
  prefix: k.prefix,
  label: k.label,
  createdAt: k.createdAt,
  expiresAt: k.expiresAt,
  status: k.status,
  revokedAt: k.revokedAt,
  lastUsedAt: k.lastUsedAt,
  userId: k.userId,
});

const stored = (k: ApiKey): ApiKeyInfo => ({
  uniqueId: k.uniqueId,
  prefix: k.prefix,
  label: k.label ?? null,
  createdAt: k.createdAt,
  expiresAt: k.expiresAt ?? null,
  status: k.expiresAt && k.expiresAt.getTime() <= Date.now() ? 'expired' : 'active',
  revokedAt: null,
  lastUsedAt: k.lastUsedAt ?? null,
  userId: null,
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

  @Query(() => [ApiKeyInfo], {
    description: 'Your API keys (never their secrets): the live ones first, then the newest; at most 100.',
  })
  async myApiKeys(@Ctx() ctx: RequestContext): Promise<ApiKeyInfo[]> {
    return (await ctx.services.apiKeyAdmin.listOwnKeys(ctx)).map(listed);
  }

  @Query(() => [ApiKeyInfo], {
    description:
      "A user's API keys (yourself, or anyone's for platform administrators): the live ones first, then the newest; at most 100.",
  })
  async apiKeys(
    @Arg('userId', () => ID, { description: 'The user (ORCID, MFID, username or email).' }) userId: string,
    @Ctx() ctx: RequestContext,
  ): Promise<ApiKeyInfo[]> {
    return (await ctx.services.apiKeyAdmin.listUserKeys(ctx, userId)).map(listed);
  }

  @Mutation(() => IssuedApiKey, {
    description:
      'Creates an API key of your own (people, not service accounts); the secret is in this answer only. A label of 1-100 characters; an expiry in the future, at most 365 days ahead (90 days when absent); at most 20 live keys.',
  })
  async createApiKey(
    @Arg('label', { description: 'What the key is for (1-100 characters).' }) label: string,
    @Arg('expiresAt', () => Date, { nullable: true, description: 'When it expires; in 90 days when absent.' })
    expiresAt: Date | null | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<IssuedApiKey> {
    const { key, secret } = await ctx.services.apiKeyAdmin.createOwnKey(ctx, { label, expiresAt });
    return { apiKey: listed(key), secret };
  }

  @Mutation(() => ApiKeyInfo, {
    description:
      "Revokes an API key: your own, or anyone's for platform administrators (a key you may not see is NOT_FOUND). It stops working at once; revoking it again changes nothing.",
  })
  async revokeApiKey(
    @Arg('id', () => ID, { description: 'The key id.' }) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<ApiKeyInfo> {
    return listed(await ctx.services.apiKeyAdmin.revokeOwnKey(ctx, id));
  }
}

/** API keys as `Node`s: the caller's own unrevoked keys only (another user's key is null, like a missing one). */
export const API_KEY_NODE = nodeType<ApiKeyInfo>(
  'ApiKeyInfo',
  isMfid,
  (k) => k.uniqueId,
  async (ctx, keys) => (await ctx.services.user.ownKeys(ctx, keys)).map(stored),
);
