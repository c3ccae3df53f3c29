import type { RequestContext } from '../../core/context';
import { qBool, qList, qStr, type Query } from '../../core/rest/params';
import { toPublicUser } from '../user/user.legacy';
import { extrasFlags, legacyExtras, type ExtrasOptions } from '../dataset/dataset.legacy';
import type { Sample } from './sample.entity';
import type { SampleCapabilities } from './sample.policy';
import type { SampleFilter } from './sample.query';

export interface LegacySampleOptions extends ExtrasOptions {
  includeOwner?: boolean;
  /** the deprecated embedded `datasets` array (readable datasets only) */
  includeDatasets?: boolean;
  capabilities?: SampleCapabilities | null;
}

/** The legacy REST shape of a sample (reference §4, §12): every key, null where empty. */
export async function toLegacySample(
  ctx: RequestContext,
  sample: Sample,
  opts: LegacySampleOptions = {},
): Promise<Record<string, unknown>> {
  const [project, owner, datasets, extras] = await Promise.all([
    sample.project ? ctx.loaders.project.load(sample.project.uniqueId) : null,
    opts.includeOwner ? ctx.loaders.user.load(sample.owner.uniqueId) : null,
    opts.includeDatasets ? ctx.loaders.links.datasetsOfSample.load(sample.uniqueId) : null,
    legacyExtras(ctx, sample.uniqueId, opts),
  ]);
  const out: Record<string, unknown> = {
    unique_id: sample.uniqueId,
    sample_name: sample.sampleName ?? null,
    sample_type: sample.sampleType ?? null,
    description: sample.description ?? null,
    timestamp: sample.timestamp ?? null,
    public: sample.public,
    owner_orcid: sample.owner.uniqueId,
    project_id: project?.projectId ?? null,
    project_mfid: project?.uniqueId ?? null,
    project: project
      ? { unique_id: project.uniqueId, project_id: project.projectId, title: project.title ?? null }
      : null,
    creation_time: sample.creationTime.toISOString(),
    modification_time: sample.modificationTime.toISOString(),
    resource_type: 'sample',
    capabilities: opts.capabilities ? toLegacySampleCapabilities(opts.capabilities) : null,
  };
  if (opts.includeOwner) out.owner = owner ? toPublicUser(ctx, owner) : null;
  if (datasets) {
    out.datasets = datasets.map((ds) => ({
      unique_id: ds.uniqueId,
      dataset_name: ds.datasetName ?? null,
      measurement: ds.measurement ?? null,
    }));
  }
  return Object.assign(out, extras);
}

function toLegacySampleCapabilities(c: SampleCapabilities): Record<string, boolean> {
  return {
    can_read: c.canRead,
    can_update: c.canUpdate,
    can_edit_metadata: c.canEditMetadata,
    can_manage_access: c.canManageAccess,
    can_transfer_ownership: c.canTransferOwnership,
    can_reassign_project: c.canReassignProject,
    can_request_deletion: c.canRequestDeletion,
    can_delete: c.canDelete,
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
    includeOwner: qBool(q, 'include_owner', true),
    includeDatasets: qBool(q, 'include_datasets', true),
    capabilities: await ctx.services.sample.policy.capabilities(ctx, sample),
    ...extrasFlags(q),
    includeDeletion: true,
  });
}

/** Samples as collections return them: include flags default to false. */
export function sampleItems(
  ctx: RequestContext,
  samples: Sample[],
  q: Query,
): Promise<Record<string, unknown>[]> {
  const opts = {
    includeOwner: qBool(q, 'include_owner', false),
    includeDatasets: qBool(q, 'include_datasets', false),
    ...extrasFlags(q),
  };
  return Promise.all(samples.map((s) => toLegacySample(ctx, s, opts)));
}
