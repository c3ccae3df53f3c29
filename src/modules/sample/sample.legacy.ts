import type { RequestContext } from '../../core/context';
import { QBool, QList, QStr, Type, type Static, type TObject } from '../../core/rest/schema';
import {
  detailOptions,
  itemOptions,
  recordWireSchema,
  toLegacyRecord,
  type LegacyRecordOptions,
  type RecordWire,
} from '../owned-record/owned-record.legacy';
import { INCLUDE_QUERY, type IncludeFlags } from '../../core/rest/include';
import type { PageRequest } from '../../core/db/page';
import type { JsonPage } from '../../core/rest/record-routes';
import { recordJsonItems, recordJsonProjection, type RecordJsonRow } from '../owned-record/owned-record-json';
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

const PROJECTION = recordJsonProjection(WIRE, 's', { own: [] });

/**
 * A page of `GET /samples` as JSON text, the same bytes {@link sampleItems} gives, built in
 * PostgreSQL; null with `include_datasets` (its key sits inside the record: the entity path).
 */
export function sampleListJson(
  ctx: RequestContext,
  filter: SampleFilter,
  page: PageRequest,
  q: SampleQuery,
): Promise<JsonPage> | null {
  if (q.include_datasets) return null;
  return ctx.services.sample
    .listProjected<RecordJsonRow>(ctx, filter, page, PROJECTION)
    .then(async ({ rows, nextCursor }) => ({
      items: await recordJsonItems(ctx, rows, itemOptions(q)),
      nextCursor,
    }));
}

/** The list filters of `GET /samples` (and of the related-sample lists) from the query. */
export const SAMPLE_QUERY = {
  unique_id: QStr('exact MFID'),
  sample_name: QStr('exact name'),
  sample_type: QStr('exact type'),
  owner_orcid: QStr("owner's ORCID"),
  timestamp: QStr('exact timestamp'),
  public: QBool('public or private samples only'),
  project_id: QStr('project slug'),
  project_mfid: QStr('project MFID'),
  dataset_mfid: QStr('linked to this dataset'),
  accessible_to_user: QList('readable by these users (ORCIDs)'),
  accessible_to_project: QList('readable by these projects'),
  ...INCLUDE_QUERY,
  include_datasets: QBool(
    'add the deprecated `datasets` list (default true on single reads, false in lists)',
  ),
};
export type SampleQuery = Static<TObject<typeof SAMPLE_QUERY>>;

export function parseSampleFilter(q: SampleQuery): SampleFilter {
  return {
    uniqueId: q.unique_id,
    sampleName: q.sample_name,
    sampleType: q.sample_type,
    ownerOrcid: q.owner_orcid,
    timestamp: q.timestamp,
    public: q.public,
    projectId: q.project_id,
    projectMfid: q.project_mfid,
    datasetMfid: q.dataset_mfid,
    accessibleToUser: q.accessible_to_user,
    accessibleToProject: q.accessible_to_project,
  };
}

/** A sample on the legacy wire. */
export const SAMPLE = recordWireSchema(
  SAMPLE_TEXT,
  { datasets: Type.Optional(Type.Array(Type.Object({ unique_id: Type.String() }))) },
  'Sample',
);

/** A sample as single reads return it: owner and embedded datasets by default, capabilities. */
export async function sampleDetail(
  ctx: RequestContext,
  sample: Sample,
  q: IncludeFlags,
): Promise<Record<string, unknown>> {
  return toLegacySample(ctx, sample, {
    ...detailOptions(q),
    includeDatasets: q.include_datasets ?? true,
    capabilities: await ctx.services.sample.policy.capabilities(ctx, sample),
  });
}

/** Samples as collections return them: include flags default to false. */
export function sampleItems(
  ctx: RequestContext,
  samples: Sample[],
  q: IncludeFlags,
): Promise<Record<string, unknown>[]> {
  const opts = { ...itemOptions(q), includeDatasets: q.include_datasets ?? false };
  return Promise.all(samples.map((s) => toLegacySample(ctx, s, opts)));
}
