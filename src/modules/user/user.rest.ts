import { defineRoute, type Route } from '../../core/rest/route';
import { NullableString, OFFSET_PAGE, offsetPage, QBool, QStr, Type } from '../../core/rest/schema';
import { pageOf } from '../../core/rest/params';
import {
  API_KEY,
  API_KEYS,
  toLegacyKey,
  KEY_STATUS,
  parseUserPatch,
  platformRoleBody,
  roleOf,
  PUBLIC_USER,
  toLegacyUser,
  toPublicUser,
  USER,
  userPatchBody,
  toLegacyDatasetAccess,
} from './user.legacy';

const tag = 'users';
const id = { id: 'ORCID, MFID, username or email' };
const STRINGS = Type.Optional(
  Type.Unsafe<string[] | null>({ type: ['array', 'null'], items: { type: 'string' } }),
);

/** Users (service accounts: service-account.rest.ts). Literal segments come before `/users/:id`. */
export const userRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/users',
      tag,
      summary: 'Users (platform admins)',
      query: {
        email: QStr('by email'),
        permissive: QBool('email matches case-insensitively', false),
        username: QStr('by username'),
        is_service_account: QBool('service accounts only, or people only'),
        ...OFFSET_PAGE,
      },
      response: offsetPage(USER),
    },
    async (ctx, { query }) => {
      const page = await ctx.services.userAdmin.list(
        ctx,
        {
          email: query.email,
          permissive: query.permissive ?? false,
          username: query.username,
          isServiceAccount: query.is_service_account,
        },
        pageOf(query, ctx.config.limits),
      );
      return { items: page.items.map((u) => toLegacyUser(ctx, u)), total: page.total };
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/users',
      tag,
      summary: 'Create or update a user by ORCID, and add them to projects',
      body: Type.Object(
        {
          user_info: Type.Optional(
            Type.Intersect([
              Type.Object({
                orcid: Type.Optional(NullableString()),
                unique_id: Type.Optional(NullableString({ description: 'same as orcid' })),
              }),
              userPatchBody(true, 'UserInfo'),
            ]),
          ),
          project_ids: STRINGS,
        },
        { additionalProperties: false, title: 'UserUpsert' },
      ),
      response: USER,
    },
    async (ctx, { body }) => {
      const b = body as { user_info?: Record<string, unknown>; project_ids?: string[] | null };
      const info = b.user_info ?? {};
      const orcid =
        (info.orcid as string | null | undefined) ??
        (info.unique_id as string | null | undefined) ??
        undefined;
      const patch = parseUserPatch(
        Object.fromEntries(Object.entries(info).filter(([k]) => k !== 'orcid' && k !== 'unique_id')),
      );
      const { user } = await ctx.services.userAdmin.upsert(ctx, orcid, patch, b.project_ids ?? []);
      return toLegacyUser(ctx, user);
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/users/resolve',
      tag,
      summary: 'Resolve many ORCIDs, usernames and emails to users (null when unknown)',
      body: Type.Object(
        { orcids: STRINGS, usernames: STRINGS, emails: STRINGS },
        { additionalProperties: false, title: 'UserResolve' },
      ),
      response: Type.Record(Type.String(), Type.Union([PUBLIC_USER, Type.Null()])),
    },
    async (ctx, { body }) => {
      const b = body as { orcids?: string[] | null; usernames?: string[] | null; emails?: string[] | null };
      const resolved = await ctx.services.userAdmin.resolveMany(ctx, {
        orcids: b.orcids ?? undefined,
        usernames: b.usernames ?? undefined,
        emails: b.emails ?? undefined,
      });
      return Object.fromEntries([...resolved].map(([k, u]) => [k, u ? toPublicUser(ctx, u) : null]));
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/users/by-username/:username',
      tag,
      summary: 'A user by username',
      params: { username: 'the username' },
      response: PUBLIC_USER,
    },
    async (ctx, { params }) =>
      toPublicUser(ctx, await ctx.services.userAdmin.getByUsername(ctx, params.username)),
  ),
  defineRoute(
    { method: 'get', path: '/users/:id', tag, summary: 'A user', params: id, response: USER },
    async (ctx, { params }) => toLegacyUser(ctx, await ctx.services.userAdmin.get(ctx, params.id)),
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/users/:id',
      tag,
      summary: 'Update a user (platform admins)',
      params: id,
      body: userPatchBody(true, 'UserPatch'),
      response: USER,
    },
    async (ctx, { params, body }) =>
      toLegacyUser(
        ctx,
        await ctx.services.userAdmin.update(ctx, params.id, parseUserPatch(body as Record<string, unknown>)),
      ),
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/users/:id/platform_role',
      tag,
      summary: "Set a user's platform role (platform administrators, elevated)",
      params: id,
      body: platformRoleBody('PlatformRoleChange'),
      response: USER,
      responses: { 409: { description: 'the last platform administrator keeps the admin role' } },
    },
    async (ctx, { params, body }) =>
      toLegacyUser(ctx, await ctx.services.userAdmin.setPlatformRole(ctx, params.id, roleOf(body))),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/users/:id/apikey',
      tag,
      summary: 'Revoke every API key of a user (platform administrators, elevated)',
      params: id,
      response: Type.Object({ detail: Type.String(), revoked: Type.Integer() }, { title: 'KeysRevoked' }),
    },
    async (ctx, { params }) => {
      const revoked = await ctx.services.apiKeyAdmin.revokeApiKeys(ctx, params.id);
      return { detail: `${revoked} API key(s) revoked`, revoked };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/users/:id/apikeys',
      tag,
      summary: "A user's API keys (the user themself, or platform administrators): never their secrets",
      description: 'The live keys first, then the newest; at most 100.',
      params: id,
      response: API_KEYS,
    },
    async (ctx, { params }) => ({
      items: (await ctx.services.apiKeyAdmin.listUserKeys(ctx, params.id)).map(toLegacyKey),
    }),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/users/:id/apikeys/:keyId',
      tag,
      summary: 'Revoke one API key of a user (the user themself, or platform administrators)',
      description: "A key that is not this user's is 404. Revoking a revoked key changes nothing.",
      params: { ...id, keyId: 'the key id' },
      response: API_KEY,
    },
    async (ctx, { params }) =>
      toLegacyKey(await ctx.services.apiKeyAdmin.revokeUserKey(ctx, params.id, params.keyId)),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/users/:id/apikey/verify',
      tag,
      summary: "Whether a user's key is valid",
      params: id,
      response: KEY_STATUS,
    },
    async (ctx, { params }) => {
      const status = await ctx.services.apiKeyAdmin.keyStatus(ctx, params.id);
      return {
        valid: status.valid,
        created_at: status.createdAt?.toISOString() ?? null,
        expires_at: status.expiresAt?.toISOString() ?? null,
      };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/users/:id/datasets',
      tag,
      summary: 'The datasets a user may read (MFIDs)',
      params: id,
      response: Type.Array(Type.String()),
    },
    (ctx, { params }) => ctx.services.userAccess.readableDatasets(ctx, params.id),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/users/:id/datasets/:dsid',
      tag,
      summary: "A user's access to one dataset",
      params: { ...id, dsid: 'the dataset MFID' },
      response: Type.Object(
        {
          resource_mfid: Type.Optional(Type.String({ description: '/api/v3' })),
          user_id: Type.Optional(Type.String({ description: '/api/v3' })),
          effective_access: Type.Optional(
            Type.String({
              description: '/api/v3: none, viewer, contributor, editor, admin, owner or platform_admin',
            }),
          ),
          read: Type.Boolean(),
          write: Type.Boolean(),
        },
        { title: 'DatasetAccess' },
      ),
    },
    async (ctx, { params }) =>
      toLegacyDatasetAccess(ctx, await ctx.services.userAccess.datasetAccess(ctx, params.id, params.dsid)),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/users/:id/activate',
      tag,
      summary: 'Activate an account awaiting activation (platform administrators)',
      description:
        'A person whose first sign-in through the OpenID provider made a pending account (OIDC_NEW_USERS=pending) can sign in once it is active. An active account is left as it is.',
      params: { id: 'the user (ORCID or MFID)' },
      response: USER,
    },
    async (ctx, { params }) => toLegacyUser(ctx, await ctx.services.userAdmin.activate(ctx, params.id)),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/users/:id/sessions',
      tag,
      summary: 'End every browser session of a user (the user themself, or platform administrators)',
      description:
        'Sign out everywhere: every tab of every browser must sign in again. API keys are untouched.',
      params: { id: 'the user (ORCID or MFID)' },
      response: Type.Object({ ended: Type.Integer({ description: 'how many active sessions ended' }) }),
    },
    async (ctx, { params }) => ({ ended: await ctx.services.userAdmin.signOutEverywhere(ctx, params.id) }),
  ),
];
