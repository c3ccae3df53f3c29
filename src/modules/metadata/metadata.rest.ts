import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { qBool, qInt, qStr } from '../../core/rest/params';
import { MAX_SEARCH_LIMIT } from './metadata-search';
import { toLegacyMetadata, toLegacyHit } from './metadata.legacy';

export function metadataRoutes(router: Router): void {
  router.get(
    '/resources/metadata/search',
    handle(async (ctx, req) => {
      const limit = qInt(req.query, 'limit', 20, 1, Number.MAX_SAFE_INTEGER);
      const hits = await ctx.services.metadata.search(
        ctx,
        qStr(req.query, 'q'),
        Math.min(limit, MAX_SEARCH_LIMIT),
      );
      return { items: hits.map(toLegacyHit) };
    }),
  );
  router.get(
    '/resources/:id/metadata',
    handle(async (ctx, req) => toLegacyMetadata(await ctx.services.metadata.get(ctx, param(req, 'id')))),
  );
  // PATCH merges top-level keys (creating when absent); overwrite=true replaces everything
  router.patch(
    '/resources/:id/metadata',
    handle(async (ctx, req) => {
      const mode = qBool(req.query, 'overwrite', false) ? 'replace' : 'merge';
      return toLegacyMetadata(await ctx.services.metadata.write(ctx, param(req, 'id'), mode, req.body));
    }),
  );
  // POST replaces all existing metadata (spec 4.1, 4.2), with or without overwrite
  router.post(
    '/resources/:id/metadata',
    handle(async (ctx, req) => {
      return toLegacyMetadata(await ctx.services.metadata.write(ctx, param(req, 'id'), 'replace', req.body));
    }),
  );
}
