import type { Router } from 'express';
import type { RequestContext } from '../../core/context';
import { handle, param } from '../../core/rest/handler';
import { qBool, qStr, type Query } from '../../core/rest/params';
import { toLegacyDataset } from '../dataset/dataset.legacy';
import { sampleDetail } from '../sample/sample.rest';
import { toLegacyProject } from '../project/project.rest';
import { toLegacyInstrument } from '../instrument/instrument.rest';
import { extrasFlags, withMetadata } from './resource.extras';
import type { AnyResource } from './resource.service';

/** A resource in the legacy shape of its type (each carries `resource_type`), as single reads return it. */
export async function toLegacyResource(
  ctx: RequestContext,
  r: AnyResource,
  q: Query,
): Promise<Record<string, unknown>> {
  switch (r.type) {
    case 'dataset':
      return toLegacyDataset(ctx, r.record, {
        includeOwner: qBool(q, 'include_owner', true),
        capabilities: await ctx.services.dataset.policy.capabilities(ctx, r.record),
        ...extrasFlags(q),
        includeDeletion: true,
      });
    case 'sample':
      return sampleDetail(ctx, r.record, q);
    case 'project':
      return withMetadata(
        ctx,
        ctx.services.metadata,
        r,
        q,
        await toLegacyProject(ctx, r.record, await ctx.services.project.policy.capabilities(ctx, r.record)),
      );
    case 'instrument':
      return withMetadata(
        ctx,
        ctx.services.metadata,
        r,
        q,
        await toLegacyInstrument(
          ctx,
          r.record,
          await ctx.services.instrument.policy.capabilities(ctx, r.record),
        ),
      );
  }
}

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
