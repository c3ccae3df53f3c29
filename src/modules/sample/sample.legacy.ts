import type { RequestContext } from '../../core/context';
import { QBool, QList, QStr, Type, type Static, type TObject } from '../../core/rest/schema';
import {
  detailOptions,
  itemOptions,
  legacyExtras,
  recordWireSchema,
  toLegacyRecord,
  type LegacyRecordOptions,
  type RecordWire,
  recordListFilter,
  recordListQuery,
} from '../owned-record/owned-record.legacy';
import { INCLUDE_QUERY, type IncludeFlags } from '../../core/rest/include';
import { ownedRecordOf, withIncludes } from '../owned-record/owned-record-row';
import type { PageRequest } from '../../core/db/page';
import type { JsonPage } from '../../core/rest/record-routes';
import { recordJsonItems, recordJsonSelect } from '../owned-record/owned-record-list.legacy';
import { SAMPLE_TEXT, type SampleTextField } from './sample.fields';
import type { SampleFilter } from './sample.query';
import type { SampleInclude, SampleRow } from './sample-row';
import type { DatasetRow } from '../dataset/dataset-row';

export interface LegacySampleOptions extends LegacyRecordOptions {
  /** the deprecated embedded `datasets` array (readable datasets only) */
  includeDatasets?: boolean;
}

const WIRE: RecordWire<SampleTextField> = { type: 'sample', text: SAMPLE_TEXT };

/** What the legacy record reads of a sample's row: its project, its owner when shown. */
export function legacyInclude(opts: { includeOwner?: boolean }): SampleInclude {
  return { project: true, owner: opts.includeOwner ?? false };
}

/**
 * The legacy REST shape of samples (reference §4, §12) from their rows: every key, null where
 * empty; relations the rows' read left out and the optional keys are read for all of them at once.
 */
export async function toLegacySamples(
  ctx: RequestContext,
  rows: readonly SampleRow[],
  opts: LegacySampleOptions = {},
): Promise<Record<string, unknown>[]> {
  const keys = opts.includeOwner ? (['project', 'owner'] as const) : (['project'] as const);
  const ids = rows.map((r) => r.uniqueId);
  const [full, extras, datasets] = await Promise.all([
    withIncludes(rows, keys, ctx.loaders.sampleRows),
    legacyExtras(ctx, ids, opts),
    opts.includeDatasets
      ? Promise.all(ids.map((id) => ctx.loaders.links.datasetsOfSample.load(id)))
      : undefined,
  ]);
  return full.map((row, i) =>
    toLegacyRecord(ctx, row, WIRE, opts, datasets ? embedded(datasets[i]) : {}, extras[i]),
  );
}

/** The deprecated embedded `datasets` of a sample (the readable ones). */
function embedded(datasets: readonly DatasetRow[]): Record<string, unknown> {
  return {
    datasets: datasets.map((ds) => ({
      unique_id: ds.uniqueId,
      dataset_name: ds.datasetName,
      measurement: ds.measurement,
    })),
  };
}

/** The legacy REST shape of one sample ({@link toLegacySamples}). */
export async function toLegacySample(
  ctx: RequestContext,
  sample: SampleRow,
  opts: LegacySampleOptions = {},
): Promise<Record<string, unknown>> {
  return (await toLegacySamples(ctx, [sample], opts))[0];
}

/**
 * A page of `GET /samples` as JSON text: the same bytes {@link sampleItems} gives for the same
 * rows, written by PostgreSQL from them; null with `include_datasets` (its key sits inside the
 * record: the rows are encoded here).
 */
export function sampleListJson(
  ctx: RequestContext,
  filter: SampleFilter,
  page: PageRequest,
  q: SampleQuery,
): Promise<JsonPage> | null {
  if (q.include_datasets) return null;
  const opts = itemOptions(q);
  const include = legacyInclude(opts);
  const select = recordJsonSelect(WIRE, { members: [] }, include.owner ?? false);
  return ctx.services.sample
    .listJson(ctx, filter, page, include, select)
    .then(async ({ rows, nextCursor }) => ({ items: await recordJsonItems(ctx, rows, opts), nextCursor }));
}

/** The list filters of `GET /samples` (and of the related-sample lists) from the query. */
/** The `<field>_is_null` filters of sample lists: wire field -> column. */
const SAMPLE_NULLABLE: Record<string, string> = {
  sample_type: 'sample_type',
  description: 'description',
  project_mfid: 'project_mfid',
  owner_id: 'owner_id',
};

export const SAMPLE_QUERY = {
  unique_id: QStr('exact MFID'),
  sample_name: QStr('exact name'),
  sample_type: QStr('exact type'),
  owner_orcid: QStr("owner's ORCID"),
  timestamp: QStr('exact timestamp'),
  public: QBool('public or private samples only'),
  project_id: QStr('project slug'),
  project_mfid: QStr('project MFID'),
  project_scope: Type.Optional(
    Type.Unsafe<'assigned' | 'shared' | 'all'>({
      type: 'string',
      enum: ['assigned', 'shared', 'all'],
      description: "which projects' samples (with project_id): assigned (default), shared with it, or all",
    }),
  ),
  description: QStr('exact description'),
  dataset_mfid: QStr('linked to this dataset'),
  accessible_to_user: QList('readable by these users (ORCIDs)'),
  accessible_to_project: QList('readable by these projects'),
  ...recordListQuery(SAMPLE_NULLABLE),
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
    projectScope: q.project_scope,
    description: q.description,
    ...recordListFilter(q, SAMPLE_NULLABLE),
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
  sample: SampleRow,
  q: IncludeFlags,
): Promise<Record<string, unknown>> {
  return toLegacySample(ctx, sample, {
    ...detailOptions(q),
    includeDatasets: q.include_datasets ?? true,
    capabilities: await ctx.services.sample.policy.capabilities(ctx, ownedRecordOf(sample)),
  });
}

/** A sample as creates and updates return it: with its owner and capabilities. */
export async function sampleWritten(
  ctx: RequestContext,
  sample: SampleRow,
): Promise<Record<string, unknown>> {
  const capabilities = await ctx.services.sample.policy.capabilities(ctx, ownedRecordOf(sample));
  return toLegacySample(ctx, sample, { includeOwner: true, capabilities });
}

/** Samples as collections return them: include flags default to false. */
export function sampleItems(
  ctx: RequestContext,
  samples: readonly SampleRow[],
  q: IncludeFlags,
): Promise<Record<string, unknown>[]> {
  return toLegacySamples(ctx, samples, { ...itemOptions(q), includeDatasets: q.include_datasets ?? false });
}
