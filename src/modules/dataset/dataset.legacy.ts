import type { RequestContext } from '../../core/context';
import { qBool, qInt, qList, qStr, type Query } from '../../core/rest/params';
import { validationError } from '../../core/errors';
import {
  detailOptions,
  itemOptions,
  toLegacyRecord,
  type LegacyRecordOptions,
  type RecordWire,
} from '../owned-record/owned-record.legacy';
import type { Dataset } from './dataset.entity';
import { UPDATABLE, type TextField } from './dataset.fields';
import type { DatasetFilter, ProjectRelation, ProjectScope } from './dataset.query';

export interface LegacyDatasetOptions extends LegacyRecordOptions {
  projectRelation?: ProjectRelation | null;
}

const WIRE: RecordWire<TextField> = { type: 'dataset', text: UPDATABLE };

/** The legacy REST shape of a dataset (reference §4, §12; spec 2.1). */
export function toLegacyDataset(
  ctx: RequestContext,
  ds: Dataset,
  opts: LegacyDatasetOptions = {},
): Promise<Record<string, unknown>> {
  return toLegacyRecord(
    ctx,
    ds,
    WIRE,
    { ...opts, projectIdFallback: ds.legacyProjectId },
    datasetKeys(ctx, ds, opts),
  );
}

/** The instrument (with the display values of legacy records), the size, the project relation. */
async function datasetKeys(
  ctx: RequestContext,
  ds: Dataset,
  opts: LegacyDatasetOptions,
): Promise<Record<string, unknown>> {
  const instrument = ds.instrument ? await ctx.loaders.instrument.load(ds.instrument.uniqueId) : null;
  const out: Record<string, unknown> = {
    instrument_id: instrument?.instrumentId ?? ds.legacyInstrumentId ?? null,
    instrument_name: instrument?.instrumentName ?? ds.legacyInstrumentName ?? null,
    instrument_mfid: instrument?.uniqueId ?? null,
    instrument: instrument
      ? {
          unique_id: instrument.uniqueId,
          instrument_id: instrument.instrumentId,
          instrument_name: instrument.instrumentName,
        }
      : null,
    size: ds.size,
  };
  if (opts.projectRelation !== undefined) out.project_relation = opts.projectRelation;
  return out;
}

/** A dataset as single reads return it. */
export async function datasetDetail(
  ctx: RequestContext,
  ds: Dataset,
  q: Query,
): Promise<Record<string, unknown>> {
  return toLegacyDataset(ctx, ds, {
    ...detailOptions(q),
    capabilities: await ctx.services.dataset.policy.capabilities(ctx, ds),
  });
}

/** Datasets as collections return them: include flags default to false. */
export function datasetItems(
  ctx: RequestContext,
  datasets: Dataset[],
  q: Query,
  relations?: Map<string, ProjectRelation>,
): Promise<Record<string, unknown>[]> {
  const opts = itemOptions(q);
  return Promise.all(
    datasets.map((ds) =>
      toLegacyDataset(ctx, ds, {
        ...opts,
        projectRelation: relations ? (relations.get(ds.uniqueId) ?? null) : undefined,
      }),
    ),
  );
}

const SCOPES: ProjectScope[] = ['assigned', 'shared', 'all'];

/** The list filters of `GET /datasets` (and of the related-dataset lists) from the query. */
export function parseFilter(q: Query): DatasetFilter {
  const scope = qStr(q, 'project_scope');
  if (scope !== undefined && !SCOPES.includes(scope as ProjectScope)) {
    throw validationError('project_scope', 'must be assigned, shared or all');
  }
  const size = qStr(q, 'size');
  return {
    projectId: qStr(q, 'project_id'),
    projectMfid: qStr(q, 'project_mfid'),
    projectScope: scope as ProjectScope | undefined,
    instrumentMfid: qStr(q, 'instrument_mfid'),
    instrumentName: qStr(q, 'instrument_name'),
    measurement: qStr(q, 'measurement'),
    keyword: qStr(q, 'keyword'),
    uniqueId: qStr(q, 'unique_id'),
    public: qBool(q, 'public'),
    datasetName: qStr(q, 'dataset_name'),
    ownerOrcid: qStr(q, 'owner_orcid'),
    timestamp: qStr(q, 'timestamp'),
    size: size === undefined ? undefined : qInt(q, 'size', 0, 0, Number.MAX_SAFE_INTEGER),
    dataFormat: qStr(q, 'data_format'),
    dataType: qStr(q, 'data_type'),
    sessionName: qStr(q, 'session_name'),
    sampleMfid: qStr(q, 'sample_mfid'),
    text: qStr(q, 'text'),
    accessibleToUser: qList(q, 'accessible_to_user'),
    accessibleToProject: qList(q, 'accessible_to_project'),
  };
}
