import type { RequestContext } from '../../core/context';
import { qBool, qInt, qList, qStr, type Query } from '../../core/rest/params';
import { validationError } from '../../core/errors';
import { toPublicUser } from '../user/user.legacy';
import { toLegacyLink } from '../link/link.legacy';
import { toLegacyDeletionRequest } from '../deletion/deletion.legacy';
import type { Dataset } from './dataset.entity';
import type { DatasetCapabilities } from './dataset.policy';
import type { DatasetFilter, ProjectRelation, ProjectScope } from './dataset.query';

export interface LegacyDatasetOptions extends ExtrasOptions {
  includeOwner?: boolean;
  capabilities?: DatasetCapabilities | null;
  projectRelation?: ProjectRelation | null;
}

/** The legacy REST shape of a dataset (reference §4, §12; spec 2.1). */
export async function toLegacyDataset(
  ctx: RequestContext,
  ds: Dataset,
  opts: LegacyDatasetOptions = {},
): Promise<Record<string, unknown>> {
  const [project, instrument, owner, extras] = await Promise.all([
    ds.project ? ctx.loaders.project.load(ds.project.uniqueId) : null,
    ds.instrument ? ctx.loaders.instrument.load(ds.instrument.uniqueId) : null,
    opts.includeOwner ? ctx.loaders.user.load(ds.owner.uniqueId) : null,
    legacyExtras(ctx, ds.uniqueId, opts),
  ]);
  const out: Record<string, unknown> = {
    unique_id: ds.uniqueId,
    dataset_name: ds.datasetName ?? null,
    measurement: ds.measurement ?? null,
    data_type: ds.dataType ?? null,
    data_format: ds.dataFormat ?? null,
    session_name: ds.sessionName ?? null,
    timestamp: ds.timestamp ?? null,
    public: ds.public,
    owner_orcid: ds.owner.uniqueId,
    project_id: project?.projectId ?? ds.legacyProjectId ?? null,
    project_mfid: project?.uniqueId ?? null,
    project: project
      ? { unique_id: project.uniqueId, project_id: project.projectId, title: project.title ?? null }
      : null,
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
    creation_time: ds.creationTime.toISOString(),
    modification_time: ds.modificationTime.toISOString(),
    resource_type: 'dataset',
    capabilities: opts.capabilities ? toLegacyCapabilities(opts.capabilities) : null,
  };
  if (opts.includeOwner) out.owner = owner ? toPublicUser(ctx, owner) : null;
  if (opts.projectRelation !== undefined) out.project_relation = opts.projectRelation;
  return Object.assign(out, extras);
}

export function toLegacyCapabilities(c: DatasetCapabilities): Record<string, boolean> {
  return {
    can_read: c.canRead,
    can_update: c.canUpdate,
    can_add_files: c.canAddFiles,
    can_edit_metadata: c.canEditMetadata,
    can_manage_access: c.canManageAccess,
    can_transfer_ownership: c.canTransferOwnership,
    can_reassign_project: c.canReassignProject,
    can_request_deletion: c.canRequestDeletion,
    can_delete: c.canDelete,
    can_change_status: c.canChangeStatus,
  };
}

/** Datasets as collections return them: include flags default to false. */
export function datasetItems(ctx: RequestContext, datasets: Dataset[], q: Query) {
  const opts = { includeOwner: qBool(q, 'include_owner', false), ...extrasFlags(q) };
  return Promise.all(datasets.map((ds) => toLegacyDataset(ctx, ds, opts)));
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
    accessibleToUser: qList(q, 'accessible_to_user'),
    accessibleToProject: qList(q, 'accessible_to_project'),
  };
}

/** Optional parts of a dataset or sample record on the legacy wire. */
export interface ExtrasOptions {
  /** `scientific_metadata`: the plain document (null when none) */
  includeMetadata?: boolean;
  /** `links`: link objects (spec 2.5) */
  includeLinks?: boolean;
  /** `deletion_request`: the pending request, or null (single reads) */
  includeDeletion?: boolean;
}

/**
 * The optional keys of a dataset or sample record, loaded through the request's DataLoaders so
 * a whole page costs one statement per kind of key. Call only for records the caller may read.
 */
export async function legacyExtras(
  ctx: RequestContext,
  uniqueId: string,
  opts: ExtrasOptions,
): Promise<Record<string, unknown>> {
  const [metadata, links, deletion] = await Promise.all([
    opts.includeMetadata ? ctx.loaders.metadata.load(uniqueId) : undefined,
    opts.includeLinks ? ctx.loaders.links.byResource.load(uniqueId) : undefined,
    opts.includeDeletion ? ctx.loaders.pendingDeletion.load(uniqueId) : undefined,
  ]);
  const out: Record<string, unknown> = {};
  if (opts.includeMetadata) out.scientific_metadata = metadata ?? null;
  if (opts.includeLinks) out.links = (links ?? []).map(toLegacyLink);
  if (opts.includeDeletion) out.deletion_request = deletion ? toLegacyDeletionRequest(deletion) : null;
  return out;
}

/** The `include_metadata` and `include_links` flags of a legacy read (both default false). */
export function extrasFlags(q: Query): ExtrasOptions {
  return {
    includeMetadata: qBool(q, 'include_metadata', false),
    includeLinks: qBool(q, 'include_links', false),
  };
}
