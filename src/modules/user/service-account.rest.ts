import { defineRoute, type Route } from '../../core/rest/route';
import { NullableString, OFFSET_PAGE, offsetPage, QStr, Checked, Type } from '../../core/rest/schema';
import { pageOf } from '../../core/rest/params';
import type { RequestContext } from '../../core/context';
import type { User } from './user.entity';
import { platformRoleBody, roleOf, SERVICE_ACCOUNT, toLegacyServiceAccount } from './user.legacy';

const tag = 'users';
const WITH_KEY = Type.Object(
  { ...SERVICE_ACCOUNT.properties, api_key: Type.String({ description: 'shown once' }) },
  { title: 'ServiceAccountWithKey' },
);

/** A service account as administrators see it: the user record, its role and its key's status. */
async function serviceAccountJson(ctx: RequestContext, users: User[]): Promise<Record<string, unknown>[]> {
  const statuses = await ctx.services.apiKeyAdmin.keyStatuses(ctx.em, users);
  return users.map((u) => toLegacyServiceAccount(ctx, u, statuses.get(u.uniqueId)));
}

/** Service accounts: made with their key, their key rotated, listed and their role set by administrators. */
export const serviceAccountRoutes: Route[] = [
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
      const { user, secret } = await ctx.services.serviceAccounts.createServiceAccount(
        ctx,
        b.username,
        b.unique_id ?? undefined,
      );
      const [record] = await serviceAccountJson(ctx, [user]);
      return { ...record, api_key: secret };
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
      const { user, secret } = await ctx.services.serviceAccounts.rotateServiceAccountKey(ctx, params.id);
      const [record] = await serviceAccountJson(ctx, [user]);
      return { ...record, api_key: secret };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/service_accounts',
      tag,
      summary: 'Service accounts with their platform role and key status (platform administrators, elevated)',
      query: {
        q: QStr('matches the username, names or MFID (case-insensitive)', { maxLength: 200 }),
        ...OFFSET_PAGE,
      },
      response: offsetPage(SERVICE_ACCOUNT),
    },
    async (ctx, { query }) => {
      const page = await ctx.services.serviceAccounts.listServiceAccounts(
        ctx,
        query.q,
        pageOf(query, ctx.config.limits),
      );
      return { items: await serviceAccountJson(ctx, page.items), total: page.total };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/service_accounts/:id',
      tag,
      summary: 'A service account with its platform role and key status (platform administrators, elevated)',
      params: { id: 'MFID or username' },
      response: SERVICE_ACCOUNT,
    },
    async (ctx, { params }) => {
      const [record] = await serviceAccountJson(ctx, [
        await ctx.services.serviceAccounts.serviceAccount(ctx, params.id),
      ]);
      return record;
    },
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/service_accounts/:id',
      tag,
      summary: "Set a service account's platform role (platform administrators, elevated)",
      params: { id: 'MFID or username' },
      body: platformRoleBody('ServiceAccountRoleChange'),
      response: SERVICE_ACCOUNT,
      responses: { 409: { description: 'the last platform administrator keeps the admin role' } },
    },
    async (ctx, { params, body }) => {
      const user = await ctx.services.userAdmin.setPlatformRole(ctx, params.id, roleOf(body), {
        serviceAccount: true,
      });
      const [record] = await serviceAccountJson(ctx, [user]);
      return record;
    },
  ),
];
