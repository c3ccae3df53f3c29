import type { RequestContext } from '../../core/context';
import {
  Enum,
  NullableString,
  QBool,
  QInt,
  QList,
  QStr,
  Type,
  type Static,
  type TObject,
} from '../../core/rest/schema';
import {
  detailOptions,
  itemOptions,
  recordWireSchema,
  toLegacyRecord,
  type LegacyRecordOptions,
  type RecordWire,
} from '../owned-record/owned-record.legacy';
import { INCLUDE_QUERY, type IncludeFlags } from '../../core/rest/include';
import { jsonMembersSql, jsonObjectSql, type JsonMember } from '../../core/db/json-sql';
import type { PageRequest } from '../../core/db/page';
import type { JsonPage } from '../../core/rest/record-routes';
import {
  jsonText,
  lateralJson,
  recordJsonItems,
  recordJsonProjection,
  type RecordJsonRow,
} from '../owned-record/owned-record-json';
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
  q: IncludeFlags,
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
  q: IncludeFlags,
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

const INSTRUMENT_JSON: JsonMember[] = [
  ['instrument_id', { json: `coalesce(_i.id, ${jsonText('d.legacy_instrument_id')}, 'null')` }],
  ['instrument_name', { json: `coalesce(_i.name, ${jsonText('d.legacy_instrument_name')}, 'null')` }],
  {
    members: '_i.members',
    otherwise: [
      ['instrument_mfid', { constant: null }],
      ['instrument', { constant: null }],
    ],
  },
  ['size', { integer: 'd.size' }],
];
const INSTRUMENT_JOIN = lateralJson('_i', 'instrument', 'd.instrument_mfid', {
  id: jsonText('t.instrument_id'),
  name: jsonText('t.instrument_name'),
  members: jsonMembersSql([
    ['instrument_mfid', { value: 't.unique_id' }],
    [
      'instrument',
      {
        json: jsonObjectSql([
          ['unique_id', { value: 't.unique_id' }],
          ['instrument_id', { value: 't.instrument_id' }],
          ['instrument_name', { value: 't.instrument_name' }],
        ]),
      },
    ],
  ]),
});
/** A list page's datasets as JSON built by PostgreSQL: without and with `project_relation`. */
const PROJECTIONS = [false, true].map((related) =>
  recordJsonProjection(WIRE, 'd', {
    own: related ? [...INSTRUMENT_JSON, ['project_relation', { value: 'd._extra' }]] : INSTRUMENT_JSON,
    joins: INSTRUMENT_JOIN,
    projectIdFallback: 'd.legacy_project_id',
  }),
);

/**
 * A page of `GET /datasets` as JSON text: the same bytes {@link datasetItems} gives for the
 * same page, from one statement that builds each record's JSON in PostgreSQL.
 */
export async function datasetListJson(
  ctx: RequestContext,
  filter: DatasetFilter,
  page: PageRequest,
  q: IncludeFlags,
): Promise<JsonPage> {
  const { rows, nextCursor } = await ctx.services.dataset.listProjected<RecordJsonRow>(
    ctx,
    filter,
    page,
    (related) => PROJECTIONS[related ? 1 : 0],
  );
  return { items: await recordJsonItems(ctx, rows, itemOptions(q)), nextCursor };
}

const SCOPES: readonly ProjectScope[] = ['assigned', 'shared', 'all'];

/** The list filters of `GET /datasets` and of the related-dataset lists, with the include flags. */
export const DATASET_QUERY = {
  project_id: QStr('project slug'),
  project_mfid: QStr('project MFID'),
  project_scope: Type.Optional(Enum(SCOPES, { description: "which projects' datasets (with project_id)" })),
  instrument_mfid: QStr('instrument MFID'),
  instrument_name: QStr('instrument name'),
  measurement: QStr('exact measurement'),
  keyword: QStr('a keyword the dataset carries'),
  unique_id: QStr('exact MFID'),
  public: QBool('public or private datasets only'),
  dataset_name: QStr('exact name'),
  owner_orcid: QStr("owner's ORCID"),
  timestamp: QStr('exact timestamp'),
  size: QInt('exact size in bytes', { minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  data_format: QStr('exact data format'),
  data_type: QStr('exact data type'),
  session_name: QStr('exact session name'),
  sample_mfid: QStr('linked to this sample'),
  text: QStr('full-text search over name, description, keywords and metadata (words, all required)'),
  accessible_to_user: QList('readable by these users (ORCIDs)'),
  accessible_to_project: QList('readable by these projects'),
  ...INCLUDE_QUERY,
};
export type DatasetQuery = Static<TObject<typeof DATASET_QUERY>>;

/** The list filters of `GET /datasets` (and of the related-dataset lists) from the query. */
export function parseFilter(q: DatasetQuery): DatasetFilter {
  return {
    projectId: q.project_id,
    projectMfid: q.project_mfid,
    projectScope: q.project_scope,
    instrumentMfid: q.instrument_mfid,
    instrumentName: q.instrument_name,
    measurement: q.measurement,
    keyword: q.keyword,
    uniqueId: q.unique_id,
    public: q.public,
    datasetName: q.dataset_name,
    ownerOrcid: q.owner_orcid,
    timestamp: q.timestamp,
    size: q.size,
    dataFormat: q.data_format,
    dataType: q.data_type,
    sessionName: q.session_name,
    sampleMfid: q.sample_mfid,
    text: q.text,
    accessibleToUser: q.accessible_to_user,
    accessibleToProject: q.accessible_to_project,
  };
}

const nullable = NullableString();
/** A dataset on the legacy wire. */
export const DATASET = recordWireSchema(
  UPDATABLE,
  {
    instrument_id: nullable,
    instrument_name: nullable,
    instrument_mfid: nullable,
    instrument: Type.Union([Type.Object({}), Type.Null()]),
    size: Type.Integer(),
    project_relation: Type.Optional(
      NullableString({ description: 'lists: how the dataset relates to the project' }),
    ),
  },
  'Dataset',
);
