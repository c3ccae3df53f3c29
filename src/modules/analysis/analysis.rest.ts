import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { ANALYSES, type AnalysisRequest } from './analysis-request.entity';
import { analysisQueue } from './analysis.service';

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** The legacy shape of an analysis request. */
export function toLegacyAnalysisRequest(r: AnalysisRequest): Record<string, unknown> {
  return {
    id: r.id,
    dataset_mfid: r.dataset.uniqueId,
    analysis: r.analysis,
    queue: analysisQueue(r.analysis),
    status: r.status,
    requester_id: r.requesterId ?? null,
    time_created: iso(r.timeCreated),
    time_completed: iso(r.timeCompleted),
    error_message: r.errorMessage ?? null,
  };
}

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
