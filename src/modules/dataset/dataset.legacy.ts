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
import { jsonMembersSql, jsonObjectSql, type JsonMember } from '../../core/db/json-sql';
import type { PageRequest } from '../../core/db/page';
import type { JsonPage } from '../../core/rest/record-routes';
import {
  jsonText,
  lateralJson,
  recordJsonItems,
  recordJsonSelect,
} from '../owned-record/owned-record-list.legacy';
import { UPDATABLE, type TextField } from './dataset.fields';
import type { DatasetFilter, ProjectScope } from './dataset.query';
import type { DatasetInclude, DatasetRow } from './dataset-row';

const WIRE: RecordWire<TextField> = { type: 'dataset', text: UPDATABLE };

/** What the legacy record reads of a dataset's row: its project and instrument, its owner when shown. */
export function legacyInclude(opts: { includeOwner?: boolean }): DatasetInclude {
  return { project: true, instrument: true, owner: opts.includeOwner ?? false };
}

/** The dataset's own keys: the instrument (with a legacy record's display values), the size. */
function datasetKeys(row: DatasetRow): Record<string, unknown> {
  const instrument = row.instrument ?? null;
  const own: Record<string, unknown> = {
    instrument_id: row.instrumentId ?? null,
    instrument_name: row.instrumentName ?? null,
    instrument_mfid: instrument?.uniqueId ?? null,
    instrument: instrument
      ? {
          unique_id: instrument.uniqueId,
          instrument_id: instrument.instrumentId,
          instrument_name: instrument.instrumentName,
        }
      : null,
    size: row.size,
  };
  // a list's row whose filter names a project
  if (row.projectRelation !== undefined) own.project_relation = row.projectRelation;
  return own;
}

/**
 * The legacy REST shape of datasets (reference §4, §12; spec 2.1), from their rows; relations
 * the rows' read left out and the optional keys are read for all of them at once.
 */
export async function toLegacyDatasets(
  ctx: RequestContext,
  rows: readonly DatasetRow[],
  opts: LegacyRecordOptions = {},
): Promise<Record<string, unknown>[]> {
  const keys = opts.includeOwner
    ? (['project', 'instrument', 'owner'] as const)
    : (['project', 'instrument'] as const);
  const [full, extras] = await Promise.all([
    withIncludes(rows, keys, ctx.loaders.datasetRows),
    legacyExtras(
      ctx,
      rows.map((r) => r.uniqueId),
      opts,
    ),
  ]);
  return full.map((row, i) => toLegacyRecord(ctx, row, WIRE, opts, datasetKeys(row), extras[i]));
}

/** The legacy REST shape of one dataset ({@link toLegacyDatasets}). */
export async function toLegacyDataset(
  ctx: RequestContext,
  ds: DatasetRow,
  opts: LegacyRecordOptions = {},
): Promise<Record<string, unknown>> {
  return (await toLegacyDatasets(ctx, [ds], opts))[0];
}

/** A dataset as single reads return it (owner by default, pending deletion, capabilities). */
export async function datasetDetail(
  ctx: RequestContext,
  ds: DatasetRow,
  q: IncludeFlags,
): Promise<Record<string, unknown>> {
  return toLegacyDataset(ctx, ds, {
    ...detailOptions(q),
    capabilities: await ctx.services.dataset.policy.capabilities(ctx, ownedRecordOf(ds)),
  });
}

/** A dataset as creates and updates return it: with its owner and capabilities. */
export async function datasetWritten(ctx: RequestContext, ds: DatasetRow): Promise<Record<string, unknown>> {
  const capabilities = await ctx.services.dataset.policy.capabilities(ctx, ownedRecordOf(ds));
  return toLegacyDataset(ctx, ds, { includeOwner: true, capabilities });
}

/** Datasets as collections return them: include flags default to false. */
export function datasetItems(
  ctx: RequestContext,
  datasets: readonly DatasetRow[],
  q: IncludeFlags,
): Promise<Record<string, unknown>[]> {
  return toLegacyDatasets(ctx, datasets, itemOptions(q));
}

/**
 * The dataset's own members of its list JSON (recordJsonSelect), over the projected row `r`: as
 * {@link datasetKeys} writes them.
 */
const OWN_JSON: JsonMember[] = [
  // a registered instrument's, once per instrument; a legacy record's display values
  ['instrument_id', { json: `coalesce(_ij.id, ${jsonText('r._instrument_id')}, 'null')` }],
  ['instrument_name', { json: `coalesce(_ij.name, ${jsonText('r._instrument_name')}, 'null')` }],
  {
    members: '_ij.m',
    otherwise: [
      ['instrument_mfid', { constant: null }],
      ['instrument', { constant: null }],
    ],
  },
  // the row's number, exact up to 2^53 as JavaScript writes it
  ['size', { integer: 'r.size::bigint' }],
];
const RELATED_JSON: JsonMember[] = [...OWN_JSON, ['project_relation', { value: 'r._extra' }]];
const INSTRUMENT_JSON = lateralJson('_ij', 'r._instrument_mfid is not null', {
  id: jsonText('r._instrument_slug'),
  name: jsonText('r._instrument_label'),
  m: jsonMembersSql([
    ['instrument_mfid', { value: 'r._instrument_mfid' }],
    [
      'instrument',
      {
        json: jsonObjectSql([
          ['unique_id', { value: 'r._instrument_mfid' }],
          ['instrument_id', { value: 'r._instrument_slug' }],
          ['instrument_name', { value: 'r._instrument_label' }],
        ]),
      },
    ],
  ]),
});

/**
 * A page of `GET /datasets` as JSON text: the same bytes {@link datasetItems} gives for the same
 * rows, written by PostgreSQL from them in the page's one statement.
 */
export async function datasetListJson(
  ctx: RequestContext,
  filter: DatasetFilter,
  page: PageRequest,
  q: IncludeFlags,
): Promise<JsonPage> {
  const opts = itemOptions(q);
  const include = legacyInclude(opts);
  const { rows, nextCursor } = await ctx.services.dataset.listJson(ctx, filter, page, include, (related) =>
    recordJsonSelect(
      WIRE,
      { members: related ? RELATED_JSON : OWN_JSON, joins: INSTRUMENT_JSON },
      include.owner ?? false,
    ),
  );
  return { items: await recordJsonItems(ctx, rows, opts), nextCursor };
}

const SCOPES: readonly ProjectScope[] = ['assigned', 'shared', 'all'];

/** The list filters of `GET /datasets` and of the related-dataset lists, with the include flags. */
/** The `<field>_is_null` filters of dataset lists: wire field -> column. */
const DATASET_NULLABLE: Record<string, string> = {
  data_format: 'data_format',
  measurement: 'measurement',
  session_name: 'session_name',
  instrument_mfid: 'instrument_mfid',
  project_mfid: 'project_mfid',
  owner_id: 'owner_id',
};

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
  ...recordListQuery(DATASET_NULLABLE),
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
    ...recordListFilter(q, DATASET_NULLABLE),
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
