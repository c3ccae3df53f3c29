import type { RequestContext } from '../../core/context';
import { forbidden } from '../../core/errors';
import { canElevate } from '../../core/auth/privilege';
import { allows, type Permission } from '../permission/permission';
import type { User } from './user.entity';

/** What inspecting a user's access reports about one dataset (`/users/{id}/datasets/{dsid}`). */
export interface DatasetAccessReport {
  read: boolean;
  write: boolean;
  /**
   * The user's level on it (the 3.2 client's `effective_access`): `platform_admin` for a platform
   * administrator (they act as one unless a request of theirs asks for normal mode), else their
   * permission, or `none`.
   */
  effective: Permission | 'platform_admin' | 'none';
}

/**
 * Users are directory records: any authenticated caller may look one up by exact identifier and
 * see its public-safe profile. Email addresses are shown only to the user themself and to platform
 * administrators; listing, creating and changing other users is for platform administrators.
 */
export class UserPolicy {
  canSeeEmail(ctx: RequestContext, user: Pick<User, 'uniqueId'>): boolean {
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

  /**
   * Inspecting what a user may access through the user routes (`/users/{id}/datasets`, and one
   * dataset there) is for platform administrators, whoever the user is (oneself included).
   */
  assertMayInspectAccess(ctx: RequestContext): void {
    this.assertPlatformAdmin(ctx, "inspect another user's access");
  }

  /**
   * An `accessible_to_user` selector: platform administrators may name anyone, others only
   * themselves (by id, username or email). Decided on the selector as given, before it is
   * resolved, so the refusal says nothing about whether such a user exists.
   */
  assertMaySelectAccessOf(ctx: RequestContext, selector: string): void {
    if (ctx.isPlatformAdmin || names(ctx.caller.user, selector)) return;
    throw forbidden(`Only platform administrators may inspect what another user may access (${selector})`);
  }

  /**
   * The inspection's answer for a user holding `permission` on a dataset: `read` from viewer up,
   * `write` from contributor up (adding files, metadata, keywords and links).
   */
  datasetAccess(user: Pick<User, 'platformRole'>, permission: Permission | null): DatasetAccessReport {
    return {
      read: allows(permission, 'read'),
      write: allows(permission, 'contribute'),
      effective: canElevate(user.platformRole) ? 'platform_admin' : (permission ?? 'none'),
    };
  }
}

/** Whether `value` names `user` (their id, username or email; case-insensitive for the last two). */
function names(user: User, value: string): boolean {
  const v = value.toLowerCase();
  return (
    value === user.uniqueId ||
    v === (user.username ?? '').toLowerCase() ||
    v === (user.email ?? '').toLowerCase()
  );
}
