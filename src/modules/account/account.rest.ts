import { conflict } from '../../core/errors';
import { defineRoute, type Route } from '../../core/rest/route';
import { Checked, NullableString, Type } from '../../core/rest/schema';
import {
  API_KEY,
  API_KEYS,
  KEY_STATUS,
  parseUserPatch,
  toLegacyKey,
  toLegacyUser,
  USER,
  userPatchBody,
} from '../user/user.legacy';
import { ACCOUNT_CAPABILITIES, AUTHORIZATION, toLegacyProfile } from './account.legacy';

const tag = 'account';

const NEW_KEY = Type.Object(
  {
    label: Checked('what the key is for: 1-100 characters (required)', { type: 'string' }),
    expires_at: Type.Optional(
      Checked(
        'when it expires: an ISO 8601 date-time in the future, at most 365 days ahead (default: 90 days)',
        {
          type: ['string', 'null'],
        },
      ),
    ),
  },
  { additionalProperties: false, title: 'NewApiKey' },
);

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
      path: '/account/apikeys',
      tag,
      summary: 'Your API keys (never their secrets): the live ones first, then the newest (at most 100)',
      response: API_KEYS,
    },
    async (ctx) => ({ items: (await ctx.services.apiKeyAdmin.listOwnKeys(ctx)).map(toLegacyKey) }),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/account/apikeys',
      tag,
      summary: 'Create an API key of your own (the secret is answered once)',
      description:
        'People only: a service account is 403 (its keys are rotated by platform administrators). At most 20 live keys at once (422 beyond). A browser session needs its CSRF token, as every cookie write.',
      body: NEW_KEY,
      status: 201,
      response: Type.Intersect([
        API_KEY,
        Type.Object({ api_key: Type.String({ description: 'the secret: shown only here' }) }),
      ]),
    },
    async (ctx, { body }) => {
      const b = body as { label?: unknown; expires_at?: unknown };
      const { key, secret } = await ctx.services.apiKeyAdmin.createOwnKey(ctx, {
        label: b.label,
        expiresAt: b.expires_at,
      });
      return { ...toLegacyKey(key), api_key: secret };
    },
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/account/apikeys/:id',
      tag,
      summary: 'Revoke one of your API keys (it stops working at once)',
      description:
        "Platform administrators (elevated) may revoke anyone's key here; for anyone else a key that is not theirs is 404, as a missing one. Revoking a revoked key changes nothing.",
      params: { id: 'the key id' },
      response: API_KEY,
    },
    async (ctx, { params }) => toLegacyKey(await ctx.services.apiKeyAdmin.revokeOwnKey(ctx, params.id)),
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
