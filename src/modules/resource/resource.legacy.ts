import type { RequestContext } from '../../core/context';
import { datasetDetail } from '../dataset/dataset.legacy';
import type { IncludeFlags } from '../owned-record/owned-record.legacy';
import { sampleDetail } from '../sample/sample.legacy';
import { toLegacyProject } from '../project/project.legacy';
import { toLegacyInstrument } from '../instrument/instrument.legacy';
import type { MetadataService } from '../metadata/metadata.service';
import type { AnyResource } from './resource.service';

/** Adds `scientific_metadata` when asked for and visible to the caller. */
export async function withMetadata(
  ctx: RequestContext,
  metadata: MetadataService,
  r: AnyResource,
  q: IncludeFlags,
  out: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (!q.include_metadata) return out;
  const doc = await metadata.documentFor(ctx, r);
  if (doc !== undefined) out.scientific_metadata = doc;
  return out;
}

/** A resource in the legacy shape of its type (each carries `resource_type`), as single reads return it. */
export async function toLegacyResource(
  ctx: RequestContext,
  r: AnyResource,
  q: IncludeFlags,
): Promise<Record<string, unknown>> {
  switch (r.type) {
    case 'dataset':
      return datasetDetail(ctx, r.record, q);
    case 'sample':
      return sampleDetail(ctx, r.record, q);
    case 'project':
      return withMetadata(
        ctx,
        ctx.services.metadata,
        r,
        q,
        await toLegacyProject(ctx, r.record, await ctx.services.project.policy.capabilities(ctx, r.record)),
      );
    case 'instrument':
      return withMetadata(
        ctx,
        ctx.services.metadata,
        r,
        q,
        await toLegacyInstrument(
          ctx,
          r.record,
          await ctx.services.instrument.policy.capabilities(ctx, r.record),
        ),
      );
  }
}
