import type { Request, Router } from 'express';
import type { RequestContext } from '../../core/context';
import { handle, param } from '../../core/rest/handler';
import { bodyObject, qBool, qStr } from '../../core/rest/params';
import { optionalBool, optionalString, pickFields, type Body } from '../../core/rest/body';
import { validationError } from '../../core/errors';
import { toPublicUser } from '../user/user.rest';
import { toLegacyLink } from '../link/link.legacy';
import { toLegacyResource } from '../resource/resource.rest';
import type { Project } from '../project/project.entity';
import type { AccessChange, ChangeResult } from './transfer.service';

const projectRef = (p: Project | null | undefined) =>
  p ? { unique_id: p.uniqueId, project_id: p.projectId, title: p.title ?? null } : null;

/** A preview (or an applied change) on the wire. */
async function toLegacyChange(ctx: RequestContext, result: ChangeResult): Promise<Record<string, unknown>> {
  const p = result.preview;
  const change = (c: AccessChange) => ({ user: toPublicUser(ctx, c.user), before: c.before, after: c.after });
  return {
    action: p.action,
    applied: result.applied,
    resource: {
      unique_id: p.resource.uniqueId,
      resource_type: p.resource.type,
      name: ctx.services.resource.name(p.resource),
    },
    ...(p.action === 'transfer_ownership'
      ? {
          current_owner: p.currentOwner ? toPublicUser(ctx, p.currentOwner) : null,
          new_owner: p.newOwner ? toPublicUser(ctx, p.newOwner) : null,
        }
      : { current_project: projectRef(p.currentProject), new_project: projectRef(p.newProject) }),
    gains: p.gains.map(change),
    losses: p.losses.map(change),
    grants_affected: p.grantsAffected.map((g) => ({
      principal_type: g.principalType,
      principal_id: g.principalId,
      permission: g.permission,
      effect: g.effect,
      reason: g.reason,
    })),
    related: {
      links: p.related.links.map(toLegacyLink),
      files: p.related.files,
      datasets: p.related.datasets,
      samples: p.related.samples,
    },
    token: p.token,
    ...(result.applied ? { record: await toLegacyResource(ctx, p.resource, {}) } : {}),
  };
}

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
