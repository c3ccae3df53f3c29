import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { bodyObject, qBool, qStr } from '../../core/rest/params';
import { pickFields } from '../../core/rest/body';
import { toLegacyResource } from '../resource/resource.legacy';
import { toLegacyAccess, toLegacyGrant, toLegacyGroup } from './access.legacy';

/** Grants, public/private and the legacy resource access groups (spec 4.1; reference 5.9). */
export function accessRoutes(router: Router): void {
  router.get(
    '/resources/:id/access',
    handle(async (ctx, req) => toLegacyAccess(ctx, await ctx.services.grant.list(ctx, param(req, 'id')))),
  );
  router.put(
    '/resources/:id/access/:kind/:principal',
    handle(async (ctx, req) => {
      const body = pickFields(bodyObject(req.body), ['permission']);
      const grant = await ctx.services.grant.set(
        ctx,
        param(req, 'id'),
        param(req, 'kind'),
        param(req, 'principal'),
        body.permission,
      );
      return toLegacyGrant(ctx, grant);
    }),
  );
  router.delete(
    '/resources/:id/access/:kind/:principal',
    handle(async (ctx, req) => {
      const { resource, principal } = await ctx.services.grant.revoke(
        ctx,
        param(req, 'id'),
        param(req, 'kind'),
        param(req, 'principal'),
      );
      return {
        detail: `Revoked the access of ${principal.type} ${principal.name ?? principal.id} to ${resource.type} ${resource.uniqueId}`,
      };
    }),
  );
  for (const [path, value] of [
    ['/resources/:id/public', true],
    ['/resources/:id/private', false],
  ] as const) {
    router.post(
      path,
      handle(async (ctx, req) => {
        const r = await ctx.services.resource.setPublic(ctx, param(req, 'id'), value);
        return toLegacyResource(ctx, r, {});
      }),
    );
  }
  router.get(
    '/resources/:id/access_groups',
    handle(async (ctx, req) =>
      (await ctx.services.grant.managedGrants(ctx, param(req, 'id'))).map(toLegacyGroup),
    ),
  );
  router.post(
    '/resources/:id/access_groups',
    handle(async (ctx, req) => {
      const grant = await ctx.services.grant.setGroup(
        ctx,
        param(req, 'id'),
        qStr(req.query, 'group_name') ?? '',
        qBool(req.query, 'write', false),
      );
      return toLegacyGroup(grant);
    }, 201),
  );
}

/** A user's legacy access groups (reference #95–#97). */
export function accessGroupRoutes(router: Router): void {
  router.get(
    '/users/:id/access_groups',
    handle(async (ctx, req) => {
      const user = await ctx.services.userAdmin.get(ctx, param(req, 'id'));
      return ctx.services.accessGroup.namesOf(ctx, user);
    }),
  );
  router.post(
    '/users/:id/access_groups/:group',
    handle(async (ctx, req) => {
      const user = await ctx.services.userAdmin.get(ctx, param(req, 'id'));
      const group = param(req, 'group');
      await ctx.services.accessGroup.add(ctx, user, group);
      return {
        detail: `Added ${user.uniqueId} to ${group}`,
        user_unique_id: user.uniqueId,
        group_name: group,
      };
    }),
  );
  router.delete(
    '/users/:id/access_groups/:group',
    handle(async (ctx, req) => {
      const user = await ctx.services.userAdmin.get(ctx, param(req, 'id'));
      const group = param(req, 'group');
      await ctx.services.accessGroup.remove(ctx, user, group);
      return {
        detail: `Removed ${user.uniqueId} from ${group}`,
        user_unique_id: user.uniqueId,
        group_name: group,
      };
    }),
  );
}
