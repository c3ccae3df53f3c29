import type { RequestContext } from '../../core/context';
import { forbidden } from '../../core/errors';
import { allows } from '../permission/permission';
import type { AnyResource, ResourceService } from '../resource/resource.service';

/**
 * Links take their access from their ends, which must both be readable (404 otherwise).
 * Creating a link needs `contribute` on the child (on the dataset of a dataset-sample
 * association): a link describes where the child comes from. Removing one needs `contribute`
 * on either end.
 */
export class LinkPolicy {
  constructor(private readonly resources: ResourceService) {}

  /** `child`: the child of a directed link, the dataset of an association. */
  async assertMayLink(ctx: RequestContext, child: AnyResource): Promise<void> {
    await this.resources.assertCan(ctx, 'contribute', child);
  }

  async assertMayUnlink(ctx: RequestContext, a: AnyResource, b: AnyResource): Promise<void> {
    const [pa, pb] = await Promise.all([
      this.resources.permission(ctx, a),
      this.resources.permission(ctx, b),
    ]);
    if (allows(pa, 'contribute') || allows(pb, 'contribute')) return;
    throw forbidden(`Removing the link needs contribute permission on ${a.uniqueId} or ${b.uniqueId}`);
  }
}
