import type { RequestContext } from '../../core/context';
import { forbidden } from '../../core/errors';
import type { User } from './user.entity';

/**
 * Users are directory records: any authenticated caller may look one up by exact identifier and
 * see its public-safe profile. Email addresses are shown only to the user themself and to platform
 * administrators; listing, creating and changing other users is for platform administrators.
 */
export class UserPolicy {
  canSeeEmail(ctx: RequestContext, user: User): boolean {
    return ctx.isPlatformAdmin || (ctx.isAuthenticated && ctx.userId === user.uniqueId);
  }

  isSelfOrAdmin(ctx: RequestContext, user: User): boolean {
    return this.canSeeEmail(ctx, user);
  }

  assertPlatformAdmin(ctx: RequestContext, what = 'do this'): void {
    if (!ctx.isPlatformAdmin) throw forbidden(`Only platform administrators may ${what}`);
  }

  assertSelfOrAdmin(ctx: RequestContext, user: User, what = 'do this'): void {
    if (!this.isSelfOrAdmin(ctx, user))
      throw forbidden(`Only the user themself or a platform administrator may ${what}`);
  }
}
