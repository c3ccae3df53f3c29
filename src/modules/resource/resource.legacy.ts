import type { RequestContext } from '../../core/context';
import { datasetDetail } from '../dataset/dataset.legacy';
import { withMetadata, type IncludeFlags } from '../../core/rest/include';
import { sampleDetail } from '../sample/sample.legacy';
import { toLegacyProject } from '../project/project.legacy';
import { toLegacyInstrument } from '../instrument/instrument.legacy';
import type { AnyResource } from './resource.service';

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
        q,
        await toLegacyProject(ctx, r.record, await ctx.services.project.policy.capabilities(ctx, r.record)),
        () => ctx.services.metadata.documentFor(ctx, r),
      );
    case 'instrument':
      return withMetadata(
        q,
        await toLegacyInstrument(
          ctx,
          r.record,
          await ctx.services.instrument.policy.capabilities(ctx, r.record),
        ),
        () => ctx.services.metadata.documentFor(ctx, r),
      );
  }
}
