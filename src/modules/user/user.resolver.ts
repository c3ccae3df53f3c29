import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { notFound } from '../../core/errors';
import { User } from './user.entity';
import { IssuedServiceAccount, PendingUserPage, ProfileInput } from './user.types';
import { nodeType } from '../../core/graphql/node';
import { isMfid, isOrcid } from '../../core/ids';

@Resolver(() => User)
export class UserResolver {
  @Query(() => User, { description: 'A user by exact ORCID, MFID, username or email (public-safe record).' })
  async user(
    @Arg('id', { description: 'ORCID, MFID, username or email.' }) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    const user = await ctx.services.user.resolve(ctx.em, id);
    if (!user) throw notFound('User', id);
    return user;
  }

  @Mutation(() => User, { description: 'Changes your own profile.' })
  updateMyProfile(
    @Arg('input', { description: 'The fields to change.' }) input: ProfileInput,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.userAdmin.updateProfile(ctx, input);
  }

  @Mutation(() => IssuedServiceAccount, {
    description: 'Creates a service account and its first key (platform administrators).',
  })
  async createServiceAccount(
    @Arg('username', { description: 'Lowercase letters, digits, "-" and "_".' }) username: string,
    @Arg('uniqueId', () => String, { nullable: true, description: 'Your own MFID for it.' })
    uniqueId: string | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<IssuedServiceAccount> {
    const { user, secret } = await ctx.services.serviceAccounts.createServiceAccount(
      ctx,
      username,
      uniqueId ?? undefined,
    );
    return { user, apiKey: secret };
  }

  @Mutation(() => IssuedServiceAccount, {
    description: "Revokes a service account's keys and issues a new one (platform administrators).",
  })
  async rotateServiceAccountKey(
    @Arg('id', { description: 'The service account MFID.' }) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<IssuedServiceAccount> {
    const { user, secret } = await ctx.services.serviceAccounts.rotateServiceAccountKey(ctx, id);
    return { user, apiKey: secret };
  }

  @Mutation(() => User, {
    description:
      'Activates an account awaiting activation (a first sign-in through the OpenID provider; platform administrators).',
  })
  activateUser(
    @Arg('id', () => ID, { description: 'The user (ORCID or MFID).' }) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.userAdmin.activate(ctx, id);
  }

  @Query(() => PendingUserPage, {
    description:
      'Accounts awaiting activation (made by a first OpenID sign-in under OIDC_NEW_USERS=pending) and not disabled, the longest waiting first (platform administrators).',
  })
  pendingUsers(
    @Arg('first', () => Int, { defaultValue: 100, description: 'Page size (1-500, default 100).' })
    first: number,
    @Arg('offset', () => Int, { defaultValue: 0, description: 'Accounts to skip.' }) offset: number,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.userAdmin.listPending(ctx, { first, offset });
  }

  @Mutation(() => User, {
    description:
      'Disables an account (refusing one awaiting activation): its keys stop working and its sessions end. Not yourself, not a platform administrator (platform administrators; the admin command line enables it again).',
  })
  disableUser(
    @Arg('id', () => ID, { description: 'The user (ORCID or MFID).' }) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.userAdmin.disable(ctx, id);
  }

  @Mutation(() => Int, {
    description:
      "Ends every browser session of a user (yourself by default; another user's: platform administrators); how many ended. API keys are untouched.",
  })
  signOutEverywhere(
    @Arg('userId', () => ID, { nullable: true, description: 'The user; yourself when absent.' })
    userId: string | null | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.userAdmin.signOutEverywhere(ctx, userId ?? ctx.userId);
  }

  @FieldResolver(() => Date, {
    nullable: true,
    description:
      'When the account began awaiting activation; null once active. Only on your own record, or for platform administrators.',
  })
  pendingSince(@Root() user: User, @Ctx() ctx: RequestContext): Date | null {
    return ctx.services.user.policy.canSeeEmail(ctx, user) ? (user.pendingSince ?? null) : null;
  }

  @FieldResolver(() => Boolean, {
    description:
      'Whether the account is disabled (its keys and sessions refused). Only on your own record, or for platform administrators (false otherwise).',
  })
  disabled(@Root() user: User, @Ctx() ctx: RequestContext): boolean {
    return ctx.services.user.policy.canSeeEmail(ctx, user) && Boolean(user.disabledAt);
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Email address: only on your own record, or for platform administrators.',
  })
  email(@Root() user: User, @Ctx() ctx: RequestContext): string | null {
    return ctx.services.user.policy.canSeeEmail(ctx, user) ? (user.email ?? null) : null;
  }
}

/** Users as `Node`s: fetched again by global id, as their single-record reads see them. */
export const USER_NODE = nodeType<User>(
  'User',
  (key) => isOrcid(key) || isMfid(key),
  (u) => u.uniqueId,
  (ctx, keys) => ctx.services.user.byIds(ctx.em, keys),
);
