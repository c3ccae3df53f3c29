import { conflict } from '../../core/errors';
import { defineRoute, type Route } from '../../core/rest/route';
import { NullableString, Type } from '../../core/rest/schema';
import { KEY_STATUS, parseUserPatch, toLegacyUser, USER, userPatchBody } from '../user/user.legacy';
import { ACCOUNT_CAPABILITIES, AUTHORIZATION, toLegacyProfile } from './account.legacy';

const tag = 'account';

export const accountRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/account',
      tag,
      summary: 'Who am I: the caller, the key used, access groups and projects',
      response: Type.Object({
        user_unique_id: Type.String(),
        access_group_ids: Type.Array(Type.String()),
        is_platform_admin: Type.Boolean(),
        user_info: USER,
        api_key: Type.Object({
          unique_id: Type.String(),
          prefix: Type.String(),
          label: NullableString(),
          created_at: Type.String({ format: 'date-time' }),
          expires_at: NullableString({ format: 'date-time' }),
        }),
        projects: Type.Array(
          Type.Object({ unique_id: Type.String(), project_id: Type.String(), role: Type.String() }),
        ),
      }),
    },
    async (ctx) => {
      const whoami = await ctx.services.account.whoami(ctx);
      const key = whoami.apiKey;
      return {
        user_unique_id: whoami.user.uniqueId,
        access_group_ids: whoami.accessGroups,
        is_platform_admin: ctx.isPlatformAdmin,
        user_info: toLegacyUser(ctx, whoami.user),
        api_key: {
          unique_id: key.uniqueId,
          prefix: key.prefix,
          label: key.label ?? null,
          created_at: key.createdAt.toISOString(),
          expires_at: key.expiresAt?.toISOString() ?? null,
        },
        projects: whoami.projects.map((p) => ({
          unique_id: p.project.uniqueId,
          project_id: p.project.projectId,
          role: p.role,
        })),
      };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/account/profile',
      tag,
      summary: "The caller's user record, platform role, privilege mode and what the account may create",
      response: Type.Object(
        { ...USER.properties, authorization: AUTHORIZATION, capabilities: ACCOUNT_CAPABILITIES },
        { title: 'AccountProfile' },
      ),
    },
    (ctx) => Promise.resolve(toLegacyProfile(ctx)),
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/account/profile',
      tag,
      summary: "Update the caller's name, username or email",
      body: userPatchBody(false, 'ProfilePatch'),
      response: USER,
    },
    async (ctx, { body }) =>
      toLegacyUser(
        ctx,
        await ctx.services.userAdmin.updateProfile(ctx, parseUserPatch(body as Record<string, unknown>)),
      ),
  ),
  // Keys are stored hashed, so the only secret the service can show is the one this request
  // was made with: the caller's own key, which they already hold.
  defineRoute(
    {
      method: 'get',
      path: '/account/apikey',
      tag,
      summary: 'The API key this request was made with',
      description: 'A request made in a browser session (the session cookie) has none: 409.',
      response: Type.Object({ api_key: Type.String() }),
    },
    (ctx) => {
      if (ctx.caller.sessionId) {
        throw conflict(
          'This request was made in a browser session, not with an API key: there is no key to show',
        );
      }
      return Promise.resolve({ api_key: ctx.caller.token });
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/account/verify',
      tag,
      summary: 'Whether the key is valid, and when it expires',
      response: KEY_STATUS,
    },
    (ctx) => {
      const key = ctx.caller.apiKey;
      return Promise.resolve({
        valid: true,
        created_at: key.createdAt.toISOString(),
        expires_at: key.expiresAt?.toISOString() ?? null,
      });
    },
  ),
];
