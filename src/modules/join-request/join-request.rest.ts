import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { bodyObject, qOffsetPage, qStr } from '../../core/rest/params';
import { pickFields } from '../../core/rest/body';
import { toLegacyJoinRequest } from './join-request.legacy';

/** Join requests (reference #10, #75–#77). */
export function joinRequestRoutes(router: Router): void {
  router.post(
    '/access_groups/:group/join',
    handle(async (ctx, req) => {
      const body = pickFields(bodyObject(req.body), ['reason']);
      return toLegacyJoinRequest(
        ctx,
        await ctx.services.joinRequest.request(ctx, param(req, 'group'), body.reason),
      );
    }, 201),
  );
  router.get(
    '/join_requests',
    handle(async (ctx, req) => {
      const page = await ctx.services.joinRequest.list(
        ctx,
        {
          groupName: qStr(req.query, 'group_name'),
          status: qStr(req.query, 'status'),
          requesterId: qStr(req.query, 'requester_id'),
        },
        qOffsetPage(req.query, ctx.config.limits),
      );
      return {
        items: await Promise.all(page.items.map((r) => toLegacyJoinRequest(ctx, r))),
        total: page.total,
      };
    }),
  );
  // approve or reject: a JSON body here (unlike deletion requests, which take query parameters)
  router.patch(
    '/join_requests/:id',
    handle(async (ctx, req) => {
      const body = pickFields(bodyObject(req.body), ['status', 'reviewer_notes']);
      const reviewed = await ctx.services.joinRequest.review(
        ctx,
        param(req, 'id'),
        body.status,
        body.reviewer_notes,
      );
      return toLegacyJoinRequest(ctx, reviewed);
    }),
  );
  router.get(
    '/account/join_requests',
    handle(async (ctx, req) => {
      const page = await ctx.services.joinRequest.mine(
        ctx,
        qStr(req.query, 'status'),
        qOffsetPage(req.query, ctx.config.limits),
      );
      return {
        items: await Promise.all(page.items.map((r) => toLegacyJoinRequest(ctx, r))),
        total: page.total,
      };
    }),
  );
}
