import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { qStr } from '../../core/rest/params';
import { toLegacyResource } from './resource.legacy';

export function resourceRoutes(router: Router): void {
  router.get(
    '/resources/:id/type',
    handle(async (ctx, req) => (await ctx.services.resource.find(ctx, param(req, 'id'))).type),
  );
  router.get(
    '/resources/:id',
    handle(async (ctx, req) => {
      const raw = qStr(req.query, 'resource_type');
      const type = raw === undefined || raw === '' ? undefined : ctx.services.resource.parseType(raw);
      const r = await ctx.services.resource.find(ctx, param(req, 'id'), type);
      return toLegacyResource(ctx, r, req.query);
    }),
  );
}
