import { defineRoute, type Route } from '../../core/rest/route';
import { Checked, MESSAGE, QBool, QStr, Type } from '../../core/rest/schema';
import { toLegacyResource } from '../resource/resource.legacy';
import {
  ACCESS,
  ACCESS_ENTRY,
  ACCESS_GROUP,
  GRANT,
  toLegacyAccess,
  toLegacyGrant,
  toLegacyGroup,
  toPublicEntry,
} from './access.legacy';

const tag = 'access';
const id = { id: 'the resource MFID' };
const principal = {
  ...id,
  kind: '`user` or `project`',
  principal: 'the user (ORCID, username or email) or project (slug or MFID)',
};

/** Grants, public/private and the legacy resource access groups (spec 4.1; reference 5.9). */
export const accessRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/resources/:id/access',
      tag,
      summary: "A resource's owner, visibility, effective access and grants",
      description:
        'On /api/v2 an object with the grants; on /api/v3 the list the 3.2 client reads (the owner, the grants, `public`).',
      params: id,
      response: Type.Union([ACCESS, Type.Array(ACCESS_ENTRY)]),
    },
    async (ctx, { params }) => toLegacyAccess(ctx, await ctx.services.grant.list(ctx, params.id)),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/resources/:id/access/:kind/:principal',
      tag,
      summary: 'Grant (or change) access to a user or project',
      params: principal,
      body: Type.Object(
        { permission: Type.Optional(Checked('`viewer` or `editor`', { type: 'string' })) },
        { additionalProperties: false },
      ),
      response: GRANT,
    },
    async (ctx, { params, body }) => {
      const grant = await ctx.services.grant.set(
        ctx,
        params.id,
        params.kind,
        params.principal,
        (body as { permission?: unknown }).permission,
      );
      return toLegacyGrant(ctx, grant);
    },
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/resources/:id/access/:kind/:principal',
      tag,
      summary: 'Revoke the access of a user or project',
      params: principal,
      response: MESSAGE,
    },
    async (ctx, { params }) => {
      const { resource, principal } = await ctx.services.grant.revoke(
        ctx,
        params.id,
        params.kind,
        params.principal,
      );
      return {
        detail: `Revoked the access of ${principal.type} ${principal.name ?? principal.id} to ${resource.type} ${resource.uniqueId}`,
      };
    },
  ),
  ...(
    [
      ['/resources/:id/public', true],
      ['/resources/:id/private', false],
    ] as const
  ).map(([path, value]) =>
    defineRoute(
      {
        method: 'post',
        path,
        tag,
        summary: value ? 'Make a resource public' : 'Make a resource private',
        params: id,
        response: Type.Object({ unique_id: Type.String(), resource_type: Type.String() }),
      },
      async (ctx, { params }) =>
        toLegacyResource(ctx, await ctx.services.resource.setPublic(ctx, params.id, value), {}),
    ),
  ),
  // the 3.2 client's form of the two above: idempotent, no body
  defineRoute(
    {
      method: 'put',
      path: '/resources/:id/access/public',
      tag,
      summary: 'Make a resource public (idempotent)',
      params: id,
      response: Type.Object(
        { ...ACCESS_ENTRY.properties, public: Type.Boolean() },
        { title: 'PublicAccess' },
      ),
    },
    async (ctx, { params }) => {
      const r = await ctx.services.resource.setPublic(ctx, params.id, true);
      return { ...toPublicEntry(r), public: true };
    },
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/resources/:id/access/public',
      tag,
      summary: 'Make a resource private (idempotent)',
      params: id,
      response: Type.Object({
        detail: Type.String(),
        resource_id: Type.String(),
        resource_type: Type.String(),
        public: Type.Boolean(),
      }),
    },
    async (ctx, { params }) => {
      const r = await ctx.services.resource.setPublic(ctx, params.id, false);
      return {
        detail: `${r.type} ${r.uniqueId} is private`,
        resource_id: r.uniqueId,
        resource_type: r.type,
        public: false,
      };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/resources/:id/access_groups',
      tag,
      summary: "A resource's grants as legacy access groups",
      params: id,
      response: Type.Array(ACCESS_GROUP),
    },
    async (ctx, { params }) => (await ctx.services.grant.managedGrants(ctx, params.id)).map(toLegacyGroup),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/resources/:id/access_groups',
      tag,
      summary: 'Grant a legacy access group (a user or project) read or write access',
      params: id,
      query: {
        group_name: QStr('the group: a project slug, or a user'),
        read: QBool('sent by the 3.1 client (always true): a group grant always reads', true),
        write: QBool('editor instead of viewer', false),
      },
      status: 201,
      response: ACCESS_GROUP,
    },
    async (ctx, { params, query }) =>
      toLegacyGroup(
        await ctx.services.grant.setGroup(ctx, params.id, query.group_name ?? '', query.write ?? false),
      ),
  ),
];

const groupMessage = Type.Object({
  detail: Type.String(),
  user_unique_id: Type.String(),
  group_name: Type.String(),
});

/** A user's legacy access groups (reference #95–#97). */
export const accessGroupRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/users/:id/access_groups',
      tag,
      summary: "A user's legacy access groups",
      params: { id: 'ORCID, MFID, username or email' },
      response: Type.Array(Type.String()),
    },
    async (ctx, { params }) => {
      const user = await ctx.services.userAdmin.get(ctx, params.id);
      return ctx.services.accessGroup.namesOf(ctx, user);
    },
  ),
  ...(['post', 'delete'] as const).map((method) =>
    defineRoute(
      {
        method,
        path: '/users/:id/access_groups/:group',
        tag,
        summary:
          method === 'post'
            ? 'Add a user to a legacy access group'
            : 'Remove a user from a legacy access group',
        params: { id: 'ORCID, MFID, username or email', group: 'the group name' },
        response: groupMessage,
      },
      async (ctx, { params }) => {
        const user = await ctx.services.userAdmin.get(ctx, params.id);
        const group = params.group;
        if (method === 'post') await ctx.services.accessGroup.add(ctx, user, group);
        else await ctx.services.accessGroup.remove(ctx, user, group);
        return {
          detail:
            method === 'post'
              ? `Added ${user.uniqueId} to ${group}`
              : `Removed ${user.uniqueId} from ${group}`,
          user_unique_id: user.uniqueId,
          group_name: group,
        };
      },
    ),
  ),
];
