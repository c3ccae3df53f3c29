import type { RequestContext } from '../../core/context';
import { toPublicUser } from '../user/user.rest';
import type { Dataset } from './dataset.entity';
import type { DatasetCapabilities } from './dataset.policy';
import type { ProjectRelation } from './dataset.query';
import { legacyExtras, type ExtrasOptions } from '../resource/resource.extras';

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
