import { NullableString, Type } from '../../core/rest/schema';
import type { AnalysisRequest } from './analysis-request.entity';
import { analysisQueue } from './analysis.service';
import { iso } from '../../core/rest/wire';

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

const nullable = NullableString();
export const ANALYSIS_REQUEST = Type.Object(
  {
    id: Type.Integer(),
    dataset_mfid: Type.String(),
    analysis: Type.String(),
    queue: Type.String(),
    status: Type.String(),
    requester_id: nullable,
    time_created: nullable,
    time_completed: nullable,
    error_message: nullable,
  },
  { title: 'AnalysisRequest' },
);
