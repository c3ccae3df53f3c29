import type { RequestContext } from '../../core/context';
import { qBool, qList, qStr, type Query } from '../../core/rest/params';
import {
  detailOptions,
  itemOptions,
  toLegacyRecord,
  type LegacyRecordOptions,
  type RecordWire,
} from '../owned-record/owned-record.legacy';
import type { Sample } from './sample.entity';
import { SAMPLE_TEXT, type SampleTextField } from './sample.fields';
import type { SampleFilter } from './sample.query';

export interface LegacySampleOptions extends LegacyRecordOptions {
  /** the deprecated embedded `datasets` array (readable datasets only) */
  includeDatasets?: boolean;
}

const WIRE: RecordWire<SampleTextField> = { type: 'sample', text: SAMPLE_TEXT };

/** The legacy REST shape of a sample (reference §4, §12): every key, null where empty. */
export function toLegacySample(
  ctx: RequestContext,
  sample: Sample,
  opts: LegacySampleOptions = {},
): Promise<Record<string, unknown>> {
  return toLegacyRecord(ctx, sample, WIRE, opts, embeddedDatasets(ctx, sample, opts));
}

async function embeddedDatasets(
  ctx: RequestContext,
  sample: Sample,
  opts: LegacySampleOptions,
): Promise<Record<string, unknown>> {
  if (!opts.includeDatasets) return {};
  const datasets = await ctx.loaders.links.datasetsOfSample.load(sample.uniqueId);
  return {
    datasets: datasets.map((ds) => ({
      unique_id: ds.uniqueId,
      dataset_name: ds.datasetName ?? null,
      measurement: ds.measurement ?? null,
    })),
  };
}

/** The list filters of `GET /samples` (and of the related-sample lists) from the query. */
export function parseSampleFilter(q: Query): SampleFilter {
  return {
    uniqueId: qStr(q, 'unique_id'),
    sampleName: qStr(q, 'sample_name'),
    sampleType: qStr(q, 'sample_type'),
    ownerOrcid: qStr(q, 'owner_orcid'),
    timestamp: qStr(q, 'timestamp'),
    public: qBool(q, 'public'),
    projectId: qStr(q, 'project_id'),
    projectMfid: qStr(q, 'project_mfid'),
    datasetMfid: qStr(q, 'dataset_mfid'),
    accessibleToUser: qList(q, 'accessible_to_user'),
    accessibleToProject: qList(q, 'accessible_to_project'),
  };
}

/** A sample as single reads return it: owner and embedded datasets by default, capabilities. */
export async function sampleDetail(
  ctx: RequestContext,
  sample: Sample,
  q: Query,
): Promise<Record<string, unknown>> {
  return toLegacySample(ctx, sample, {
    ...detailOptions(q),
    includeDatasets: qBool(q, 'include_datasets', true),
    capabilities: await ctx.services.sample.policy.capabilities(ctx, sample),
  });
}

/** Samples as collections return them: include flags default to false. */
export function sampleItems(
  ctx: RequestContext,
  samples: Sample[],
  q: Query,
): Promise<Record<string, unknown>[]> {
  const opts = { ...itemOptions(q), includeDatasets: qBool(q, 'include_datasets', false) };
  return Promise.all(samples.map((s) => toLegacySample(ctx, s, opts)));
}
