import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { bodyObject, qBool, qOffsetPage, qStr } from '../../core/rest/params';
import { optionalString, pickFields } from '../../core/rest/body';
import { validationError } from '../../core/errors';
import { parseStatus } from './deletion.service';
import { toLegacyDeletionAudit, toLegacyDeletionRequest } from './deletion.legacy';

export function deletionRoutes(router: Router): void {
  router.post(
    '/resources/:id/delete',
    handle(async (ctx, req) => {
      // the legacy client sends `?reason=`; a JSON body `{"reason": ...}` is read too (both: 422)
      const body = pickFields(bodyObject(req.body), ['reason']);
      const fromBody = optionalString(body, 'reason') ?? undefined;
      const fromQuery = qStr(req.query, 'reason');
      if (fromBody !== undefined && fromQuery !== undefined && fromBody !== fromQuery) {
        throw validationError('reason', 'give it in the query or in the body, not both');
      }
      const request = await ctx.services.deletion.request(ctx, param(req, 'id'), fromQuery ?? fromBody);
      return toLegacyDeletionRequest(request);
    }, 201),
  );
  router.delete(
    '/resources/:id',
    handle(async (ctx, req) => {
      const id = param(req, 'id');
      const now = await ctx.services.deletion.deleteNow(ctx, id, qBool(req.query, 'force', false));
      return {
        detail: now
          ? `Resource ${id} permanently deleted`
          : `Resource ${id} was already deleted (see the audit)`,
      };
    }),
  );
  router.get(
    '/deletion_requests',
    handle(async (ctx, req) => {
      const page = await ctx.services.deletion.list(
        ctx,
        {
          status: parseStatus(qStr(req.query, 'status')),
          resourceId: qStr(req.query, 'resource_id'),
          requesterId: qStr(req.query, 'requester_id'),
        },
        qOffsetPage(req.query, ctx.config.limits),
      );
      return { items: page.items.map(toLegacyDeletionRequest), total: page.total };
    }),
  );
  router.get(
    '/deletion_requests/:id',
    handle(async (ctx, req) =>
      toLegacyDeletionRequest(await ctx.services.deletion.get(ctx, param(req, 'id'))),
    ),
  );
  // approve or reject: status and reviewer_notes are query parameters on this route
  router.patch(
    '/deletion_requests/:id',
    handle(async (ctx, req) => {
      const reviewed = await ctx.services.deletion.review(
        ctx,
        param(req, 'id'),
        qStr(req.query, 'status'),
        qStr(req.query, 'reviewer_notes'),
      );
      return toLegacyDeletionRequest(reviewed);
    }),
  );
  router.get(
    '/deletion_audit',
    handle(async (ctx, req) => {
      const page = await ctx.services.deletion.listAudit(
        ctx,
        {
          resourceId: qStr(req.query, 'resource_id'),
          requesterId: qStr(req.query, 'requester_id'),
          reviewerId: qStr(req.query, 'reviewer_id'),
        },
        qOffsetPage(req.query, ctx.config.limits),
      );
      return { items: page.items.map(toLegacyDeletionAudit), total: page.total };
    }),
  );
  router.get(
    '/deletion_audit/:id',
    handle(async (ctx, req) =>
      toLegacyDeletionAudit(await ctx.services.deletion.getAudit(ctx, param(req, 'id'))),
    ),
  );
}
