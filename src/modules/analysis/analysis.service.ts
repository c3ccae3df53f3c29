import type { RequestContext } from '../../core/context';
import { notFound } from '../../core/errors';
import type { JobQueue } from '../../core/jobs/queue';
import type { DatasetService } from '../dataset/dataset.service';
import { parseRequestId } from '../ingestion/ingestion-ids';
import { ANALYSES, AnalysisRequest, type Analysis } from './analysis-request.entity';

/** The queue of an analysis (`{request_id, dataset_mfid}` jobs). */
export const analysisQueue = (analysis: Analysis): string => `analysis.${analysis}`;
export const ANALYSIS_QUEUES = ANALYSES.map(analysisQueue);

/**
 * Requests for analyses of a dataset (carrier segmentation, in-situ spectra aggregation, RGA
 * analysis, mosaic stitching): recorded and queued on the analysis's own queue, atomically.
 * Asking needs `contribute` on the dataset; a request is readable with its dataset. The
 * consumers live outside this service: none is registered here.
 */
export class AnalysisService {
  constructor(private readonly deps: { queue: JobQueue; datasets: DatasetService }) {}

  async request(ctx: RequestContext, datasetId: string, analysis: Analysis): Promise<AnalysisRequest> {
    const ds = await this.deps.datasets.get(ctx, datasetId);
    await this.deps.datasets.policy.assertCan(ctx, 'contribute', ds);
    return ctx.em.transactional(async (tx) => {
      const request = tx.create(AnalysisRequest, { dataset: ds.uniqueId, analysis, requesterId: ctx.userId });
      await tx.flush();
      await this.deps.queue.enqueue(tx, analysisQueue(analysis), {
        request_id: request.id,
        dataset_mfid: ds.uniqueId,
      });
      return request;
    });
  }

  /** A request on a dataset the caller may read; 404 otherwise. */
  async get(ctx: RequestContext, rawId: unknown): Promise<AnalysisRequest> {
    const id = parseRequestId(rawId);
    const request = id ? await ctx.em.findOne(AnalysisRequest, { id }) : null;
    if (!request) throw notFound('Analysis request', String(rawId));
    try {
      await this.deps.datasets.get(ctx, request.dataset.uniqueId);
    } catch {
      throw notFound('Analysis request', String(rawId));
    }
    return request;
  }
}
