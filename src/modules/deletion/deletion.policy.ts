import type { RequestContext } from '../../core/context';
import { forbidden } from '../../core/errors';
import type { AccessSubject } from '../permission/access.service';
import type { ResourceService } from '../resource/resource.service';

/**
 * Deletion (spec 1.11, 3): requesting the deletion of a dataset or sample needs `manage` on it
 * (404 when the caller may not read it, 403 below admin). Everything else (listing and reading
 * requests, approving, rejecting, deleting now, the audit) is for platform administrators.
 */
export class DeletionPolicy {
  constructor(private readonly resources: ResourceService) {}

  /** `subject`: the record as its locked row reads inside the request's transaction. */
  async assertMayRequest(ctx: RequestContext, subject: AccessSubject): Promise<void> {
    await this.resources.assertCanOn(ctx, 'manage', subject);
  }

  mayReview(ctx: RequestContext): boolean {
    return ctx.isPlatformAdmin;
  }

  assertMayReview(ctx: RequestContext): void {
    if (!ctx.isPlatformAdmin)
      throw forbidden('Only platform administrators may review and perform deletions');
  }
}
