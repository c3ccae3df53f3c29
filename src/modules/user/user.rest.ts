import { defineRoute, type Route } from '../../core/rest/route';
import { NullableString, OFFSET_PAGE, offsetPage, QBool, QStr, Checked, Type } from '../../core/rest/schema';
import { pageOf } from '../../core/rest/params';
import {
  KEY_STATUS,
  parseUserPatch,
  PUBLIC_USER,
  toLegacyUser,
  toPublicUser,
  USER,
  userPatchBody,
} from './user.legacy';

const tag = 'users';
const id = { id: 'ORCID, MFID, username or email' };
const STRINGS = Type.Optional(
  Type.Unsafe<string[] | null>({ type: ['array', 'null'], items: { type: 'string' } }),
);
const WITH_KEY = Type.Intersect([USER, Type.Object({ api_key: Type.String({ description: 'shown once' }) })]);

/** Users and service accounts. Literal segments come before `/users/:id`. */
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
      method: 'get',
      path: '/users/:id/apikey/verify',
      tag,
      summary: "Whether a user's key is valid",
      params: id,
      response: KEY_STATUS,
    },
    async (ctx, { params }) => {
      const status = await ctx.services.userAdmin.keyStatus(ctx, params.id);
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
      response: Type.Object({}, { additionalProperties: true }),
    },
    (ctx, { params }) => ctx.services.userAccess.datasetAccess(ctx, params.id, params.dsid),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/service_accounts',
      tag,
      summary: 'Create a service account and its key',
      body: Type.Object(
        {
          username: Checked('the username (required)'),
          unique_id: Type.Optional(NullableString({ description: 'an id of your choice' })),
        },
        { additionalProperties: false, title: 'ServiceAccountCreate' },
      ),
      status: 201,
      response: WITH_KEY,
    },
    async (ctx, { body }) => {
      const b = body as { username: unknown; unique_id?: string | null };
      const { user, secret } = await ctx.services.userAdmin.createServiceAccount(
        ctx,
        b.username,
        b.unique_id ?? undefined,
      );
      return { ...toLegacyUser(ctx, user), api_key: secret };
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/service_accounts/:id/rotate_key',
      tag,
      summary: "Replace a service account's key",
      params: { id: 'the service account' },
      response: WITH_KEY,
    },
    async (ctx, { params }) => {
      const { user, secret } = await ctx.services.userAdmin.rotateServiceAccountKey(ctx, params.id);
      return { ...toLegacyUser(ctx, user), api_key: secret };
    },
  ),
];
