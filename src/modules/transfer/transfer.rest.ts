import type { Request, Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { bodyObject, qBool, qStr } from '../../core/rest/params';
import { optionalBool, optionalString, pickFields, type Body } from '../../core/rest/body';
import { validationError } from '../../core/errors';
import { toLegacyChange } from './transfer.legacy';

/**
 * `confirm` and `token` in the JSON body or in the query (`?confirm=true`, `True` too): a
 * confirmation must never be dropped silently. Given in both places, they must agree.
 */
function confirmation(req: Request, body: Body): { confirm?: boolean; token?: string | null } {
  const pick = <T>(field: string, fromBody: T | undefined, fromQuery: T | undefined): T | undefined => {
    if (fromBody !== undefined && fromQuery !== undefined && fromBody !== fromQuery) {
      throw validationError(field, 'given in the body and in the query with different values');
    }
    return fromBody ?? fromQuery;
  };
  return {
    confirm: pick('confirm', optionalBool(body, 'confirm'), qBool(req.query, 'confirm')),
    token: pick('token', optionalString(body, 'token') ?? undefined, qStr(req.query, 'token')),
  };
}

/** The preview/confirm workflows (spec 1.10, 3, 4.1): ownership transfer and project reassignment. */
export function transferRoutes(router: Router): void {
  router.post(
    '/resources/:id/transfer_ownership',
    handle(async (ctx, req) => {
      const body = pickFields(bodyObject(req.body), ['new_owner', 'confirm', 'token']);
      const result = await ctx.services.transfer.transferOwnership(ctx, param(req, 'id'), {
        newOwner: body.new_owner,
        ...confirmation(req, body),
      });
      return toLegacyChange(ctx, result);
    }),
  );
  router.post(
    '/resources/:id/reassign_project',
    handle(async (ctx, req) => {
      const body = pickFields(bodyObject(req.body), ['project_id', 'project_mfid', 'confirm', 'token']);
      const result = await ctx.services.transfer.reassignProject(ctx, param(req, 'id'), {
        projectId: optionalString(body, 'project_id'),
        projectMfid: optionalString(body, 'project_mfid'),
        ...confirmation(req, body),
      });
      return toLegacyChange(ctx, result);
    }),
  );
}
