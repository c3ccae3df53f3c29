import type { RequestContext } from '../../core/context';
import { grantReaches, type GrantRecord } from '../permission/access.service';
import { allows, type Permission } from '../permission/permission';

/**
 * Who sees which grants of a resource. Any reader lists them: a caller who may manage the
 * resource sees every grant, others only the grants that reach them (to them, to their
 * projects, to their named groups). Granting and revoking needs `manage` on the resource, which
 * its own policy decides (`ResourceService.assertCan`).
 */
export class GrantPolicy {
  /** The grants among `rows` the caller holding `effective` sees, and whether that is all of them. */
  async visibleGrants<T extends GrantRecord>(
    ctx: RequestContext,
    effective: Permission | null,
    rows: T[],
  ): Promise<{ complete: boolean; rows: T[] }> {
    if (allows(effective, 'manage')) return { complete: true, rows };
    const scope = await ctx.scope();
    return { complete: false, rows: rows.filter((g) => grantReaches(scope, g)) };
  }
}
