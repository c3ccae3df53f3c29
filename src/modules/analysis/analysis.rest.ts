import { defineRoute, type Route } from '../../core/rest/route';
import { ANALYSES } from './analysis-request.entity';
import { ANALYSIS_REQUEST, toLegacyAnalysisRequest } from './analysis.legacy';

const tag = 'analysis';

/** Analysis requests (reference §5.2 #21–#24) and their status. */
export const analysisRoutes: Route[] = [
  ...ANALYSES.map((analysis) =>
    defineRoute(
      {
        method: 'post',
        path: `/datasets/:id/${analysis}`,
        tag,
        summary: `Request the ${analysis} analysis of a dataset`,
        params: { id: 'the dataset MFID' },
        status: 201,
        response: ANALYSIS_REQUEST,
      },
      async (ctx, { params }) =>
        toLegacyAnalysisRequest(
          await ctx.services.analysis.request(ctx, (params as { id: string }).id, analysis),
        ),
    ),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/analysis_requests/:id',
      tag,
      summary: 'An analysis request and its status',
      params: { id: 'the request id' },
      response: ANALYSIS_REQUEST,
    },
    async (ctx, { params }) => toLegacyAnalysisRequest(await ctx.services.analysis.get(ctx, params.id)),
  ),
];
