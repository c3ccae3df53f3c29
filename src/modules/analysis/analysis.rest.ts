import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { ANALYSES } from './analysis-request.entity';
import { toLegacyAnalysisRequest } from './analysis.legacy';

/** Analysis requests (reference §5.2 #21–#24) and their status. */
export function analysisRoutes(router: Router): void {
  for (const analysis of ANALYSES) {
    router.post(
      `/datasets/:id/${analysis}`,
      handle(async (ctx, req) => {
        const request = await ctx.services.analysis.request(ctx, param(req, 'id'), analysis);
        return toLegacyAnalysisRequest(request);
      }, 201),
    );
  }
  router.get(
    '/analysis_requests/:id',
    handle(async (ctx, req) =>
      toLegacyAnalysisRequest(await ctx.services.analysis.get(ctx, param(req, 'id'))),
    ),
  );
}
