import type { RequestContext } from '../../core/context';
import { forbidden, notFound } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import { allows } from '../permission/permission';
import type { AnyResource, ResourceService } from '../resource/resource.service';

/**
 * Who may read events. A resource's history: those with admin on it (`manage`) and platform
 * admins; a removed resource's history: platform admins only. An account's history (sign-ins,
 * sign-outs, failed sign-ins, linked identities; resource type `user`): its owner and platform
 * admins. Anyone else gets what a missing id gets (404), or 403 when they may read the resource
 * but not manage it.
 */
export class EventPolicy {
  constructor(private readonly resources: ResourceService) {}

  /**
   * Checks that the caller may read the history of `id` (live or removed). Returns the live
   * resource, or null for a removed one (only platform admins get that far).
   */
  async assertMayReadHistory(ctx: RequestContext, id: string, everRecorded: () => Promise<boolean>) {
    if (await this.mayReadAccountHistory(ctx, id)) return null;
    const live = await this.resources.detect(ctx.em, id);
    if (!live) {
      if (ctx.isPlatformAdmin && (await everRecorded())) return null;
      throw notFound('Resource', id);
    }
    const r = await this.resources.find(ctx, id);
    await this.resources.assertCan(ctx, 'manage', r);
    return r;
  }

  /** Whether `id` is the caller's own account, or an account and the caller a platform admin. */
  async mayReadAccountHistory(ctx: RequestContext, id: string): Promise<boolean> {
    if (!ctx.isAuthenticated) return false;
    if (ctx.userId === id) return true;
    if (!ctx.isPlatformAdmin) return false;
    return (await rawQuery(ctx.em, 'select 1 from app_user where unique_id = ?', [id])).length > 0;
  }

  /** Purging history is for platform admins only. */
  assertMayPurge(ctx: RequestContext): void {
    if (!ctx.isPlatformAdmin) throw forbidden('Purging history needs a platform administrator');
  }

  /** Whether the caller may read the history of a resource they already read (GraphQL fields). */
  async mayReadHistoryOf(ctx: RequestContext, r: AnyResource): Promise<boolean> {
    if (ctx.isPlatformAdmin) return true;
    return allows(await this.resources.permission(ctx, r), 'manage');
  }
}
