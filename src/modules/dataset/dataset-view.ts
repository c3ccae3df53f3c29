import { getArgumentValues, isObjectType, type FieldNode, type GraphQLResolveInfo } from 'graphql';
import type { Projection } from '../../core/db/page';
import { countOnlyConnection } from '../../core/graphql/connect';
import { preloaded } from '../../core/graphql/preloaded';
import { decodeCursor } from '../../core/pagination';
import { FileConnection } from '../file/file.types';
import { selectedFields } from '../../core/graphql/selection';
import { DATASET_MAX_KEYWORDS } from './dataset.fields';
import type { InstrumentRef } from '../instrument/instrument.types';
import type { ProjectRef } from '../project/project.types';
import type { Dataset } from './dataset.entity';

/**
 * The GraphQL dataset list without entities (docs/performance.md, "The GraphQL list in one
 * statement"): when a `datasets` selection asks only for what this module can answer, the page,
 * what its nodes show of their owner, project, instrument, keywords, first thumbnail and file
 * count, and the total come from one statement, and the nodes are plain objects carrying those
 * values for their field resolvers (`preloaded`). Any other selection takes the entity path.
 */

/** Dataset fields that are columns of the row. */
const COLUMNS = new Set([
  'uniqueId',
  'datasetName',
  'measurement',
  'dataType',
  'dataFormat',
  'sessionName',
  'timestamp',
  'size',
  'public',
  'creationTime',
  'modificationTime',
]);

/** Fields whose resolvers take their value from the view (`preloaded`). */
const PRELOADED = new Set([
  'ownerOrcid',
  'owner',
  'project',
  'projectId',
  'instrument',
  'instrumentId',
  'instrumentName',
  'keywords',
  'firstThumbnail',
  'capabilities',
]);

/** Fields whose resolvers read nothing of the node but its MFID (through loaders): they run as they are. */
const BY_MFID = new Set([
  'files',
  'thumbnails',
  'links',
  'parents',
  'children',
  'samples',
  'deletionRequest',
]);

const CONNECTION = new Set(['totalCount', 'totalCountIsExact', 'edges', 'nodes', 'pageInfo', '__typename']);
const EDGE = new Set(['cursor', 'node', 'projectRelation', '__typename']);

/** What a `datasets` selection needs of the view. */
export interface ViewPlan {
  /** the total is selected: it runs within the page's statement */
  total: boolean;
  /** the node fields selected */
  fields: ReadonlySet<string>;
  /** some `files` selects `totalCount`: the counts come with the page */
  fileCounts: boolean;
  /**
   * every `files` selects its `totalCount` alone, with valid arguments (which then do not
   * change its value): the view answers it too
   */
  filesCountOnly: boolean;
}

/**
 * The plan of the `datasets` field being resolved, or null when the entity path must answer it:
 * no page is selected (a `totalCount` alone runs its count alone), or a node field outside the
 * view.
 */
export function viewPlan(info: GraphQLResolveInfo, maxPageSize: number): ViewPlan | null {
  const connection = selectedFields(info.fieldNodes, info.fragments);
  if (![...connection.keys()].every((f) => CONNECTION.has(f))) return null;
  if (!connection.has('edges') && !connection.has('nodes') && !connection.has('pageInfo')) return null;
  const nodes: FieldNode[] = [...(connection.get('nodes') ?? [])];
  const edges = selectedFields(connection.get('edges') ?? [], info.fragments);
  if (![...edges.keys()].every((f) => EDGE.has(f))) return null;
  nodes.push(...(edges.get('node') ?? []));
  const fields = selectedFields(nodes, info.fragments);
  for (const f of fields.keys()) {
    if (f !== '__typename' && !COLUMNS.has(f) && !PRELOADED.has(f) && !BY_MFID.has(f)) return null;
  }
  const filesNodes = fields.get('files') ?? [];
  const files = selectedFields(filesNodes, info.fragments);
  return {
    total: connection.has('totalCount') || connection.has('totalCountIsExact'),
    fields: new Set(fields.keys()),
    fileCounts: files.has('totalCount'),
    filesCountOnly:
      filesNodes.length > 0 &&
      [...files.keys()].every((f) => f === 'totalCount' || f === '__typename') &&
      filesNodes.every((node) => validPageArgs(info, node, maxPageSize)),
  };
}

/**
 * Whether the page arguments of `Dataset.files` at `node` pass the checks its resolver makes
 * (`first` at least 1 and at most the maximum page size, `after` a cursor of this server): when
 * they do not, the resolver runs, and reports them.
 */
function validPageArgs(info: GraphQLResolveInfo, node: FieldNode, maxPageSize: number): boolean {
  const type = info.schema.getType('Dataset');
  const field = isObjectType(type) ? type.getFields().files : undefined;
  if (!field) return false;
  try {
    const { first, after } = getArgumentValues(field, node, info.variableValues) as {
      first?: number | null;
      after?: string | null;
    };
    if (first !== undefined && first !== null && (first < 1 || first > maxPageSize)) return false;
    decodeCursor(after, 'after');
    return true;
  } catch {
    return false;
  }
}

/** A row of the view: the dataset's columns and what the plan asked of its relations. */
export interface ViewRow {
  _id: string;
  _extra: string | null;
  dataset_name: string | null;
  measurement: string | null;
  data_type: string | null;
  data_format: string | null;
  session_name: string | null;
  timestamp: string | null;
  size: number;
  public: boolean;
  creation_time: string;
  modification_time: string;
  owner_id: string;
  legacy_project_id: string | null;
  legacy_instrument_id: string | null;
  legacy_instrument_name: string | null;
  _owner?: Record<string, unknown> | null;
  _project?: ProjectRef | null;
  _instrument?: InstrumentRef | null;
  _keywords?: string[];
  _thumbnail?: { id: number; thumbnailName: string; mimeType: string } | null;
  _files?: number;
}

const isoTime = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The projection of the view's rows (page alias `d`) for `plan`. */
export function viewProjection(plan: ViewPlan): Projection {
  const has = (...names: string[]) => names.some((n) => plan.fields.has(n));
  const columns = [
    'd._extra, d.dataset_name, d.measurement, d.data_type, d.data_format, d.session_name, d.timestamp',
    // bigint: the entity's number (exact up to 2^53, as SafeInt serializes it)
    // times as text on every driver, as the driver reads them (UTC, microseconds truncated)
    `d.size::float8 as size, d.public, ${isoTime('d.creation_time')} as creation_time`,
    `${isoTime('d.modification_time')} as modification_time, d.owner_id`,
    'd.legacy_project_id, d.legacy_instrument_id, d.legacy_instrument_name',
  ];
  // the relations are read as the loaders read them: users, projects and instruments by key,
  // whoever may read them; keywords by text; the thumbnail of the lowest id
  if (has('owner')) {
    columns.push(`(select json_build_object('uniqueId', u.unique_id, 'username', u.username,
      'email', u.email, 'firstName', u.first_name, 'lastName', u.last_name,
      'isServiceAccount', u.is_service_account) from app_user u where u.unique_id = d.owner_id) as _owner`);
  }
  if (has('project', 'projectId')) {
    columns.push(`(select json_build_object('uniqueId', p.unique_id, 'projectId', p.project_id, 'title', p.title)
      from project p where p.unique_id = d.project_mfid) as _project`);
  }
  if (has('instrument', 'instrumentId', 'instrumentName')) {
    columns.push(`(select json_build_object('uniqueId', i.unique_id, 'instrumentId', i.instrument_id,
      'instrumentName', i.instrument_name) from instrument i where i.unique_id = d.instrument_mfid) as _instrument`);
  }
  if (has('keywords')) {
    columns.push(`array(select k.text from dataset_keyword dk join keyword k on k.id = dk.keyword_id
      where dk.dataset_mfid = d.unique_id order by k.text limit ${DATASET_MAX_KEYWORDS}) as _keywords`);
  }
  if (has('firstThumbnail')) {
    columns.push(`(select json_build_object('id', t.id, 'thumbnailName', t.thumbnail_name, 'mimeType', t.mime_type)
      from thumbnail t where t.dataset_mfid = d.unique_id order by t.id limit 1) as _thumbnail`);
  }
  if (plan.fileCounts) {
    columns.push(
      '(select count(*)::int from associated_file f where f.dataset_mfid = d.unique_id) as _files',
    );
  }
  return { columns: columns.join(', '), joins: '' };
}

/**
 * The node of a view row: a plain object with the dataset's column fields, carrying the values
 * of the resolver fields the plan selected (as their resolvers compute them on an entity).
 */
export function viewNode(r: ViewRow, plan: ViewPlan): Dataset {
  const project = r._project ?? null;
  const instrument = r._instrument ?? null;
  const thumbnail = r._thumbnail ?? null;
  const node = {
    uniqueId: r._id,
    datasetName: r.dataset_name,
    measurement: r.measurement,
    dataType: r.data_type,
    dataFormat: r.data_format,
    sessionName: r.session_name,
    timestamp: r.timestamp,
    size: r.size,
    public: r.public,
    creationTime: new Date(r.creation_time),
    modificationTime: new Date(r.modification_time),
  };
  return preloaded(node, {
    ownerOrcid: r.owner_id,
    owner: r._owner ?? null,
    project,
    projectId: project?.projectId ?? r.legacy_project_id ?? null,
    instrument,
    instrumentId: instrument?.instrumentId ?? r.legacy_instrument_id ?? null,
    instrumentName: instrument?.instrumentName ?? r.legacy_instrument_name ?? null,
    keywords: r._keywords ?? [],
    // the thumbnail resolvers read `dataset.uniqueId`, and the image by id when asked
    firstThumbnail: thumbnail && { ...thumbnail, dataset: { uniqueId: r._id } },
    // computed on single reads only
    capabilities: null,
    ...(plan.filesCountOnly ? { files: countOnlyConnection(FileConnection, r._files ?? 0) } : {}),
  }) as unknown as Dataset;
}
