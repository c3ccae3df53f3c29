import type { RequestContext } from '../../core/context';
import { forbidden } from '../../core/errors';
import type { AccessService, AccessSubject } from './access.service';
import { allows, refusal, type Action, type Permission } from './permission';
import { roleCreates } from './platform';

/** What every directory record's capabilities say (spec §3: what the caller may do next). */
export interface DirectoryCapabilities {
  canRead: boolean;
  canUpdate: boolean;
  canManageAccess: boolean;
  canTransferOwnership: boolean;
}

/**
 * The policy skeleton of directory records (projects, instruments): every authenticated caller
 * reads them, so the floor is viewer; changing one needs the permission the access service
 * computes for its subject (grants, ownership, membership); registering one is for platform
 * administrators. Subclasses say what the access subject is and how refusals name a record.
 */
export abstract class DirectoryRecordPolicy<T> {
  protected constructor(
    protected readonly access: AccessService,
    /** the refusal of `assertCanCreate` to callers who are not platform administrators */
    private readonly createRefusal: string,
    /** what the platform roles say about creating one (permission/platform.ts) */
    private readonly kind: 'project' | 'instrument',
  ) {}

  abstract subject(record: T): AccessSubject;

  /** The record as refusals name it, e.g. `project p1`. */
  protected abstract describe(record: T): string;

  /** Every authenticated caller reads directory records: the floor is viewer. */
  async permissionOf(ctx: RequestContext, subject: AccessSubject): Promise<Permission> {
    return (await this.access.effective(ctx, subject)) ?? 'viewer';
  }

  permission(ctx: RequestContext, record: T): Promise<Permission> {
    return this.permissionOf(ctx, this.subject(record));
  }

  async assertCan(ctx: RequestContext, action: Action, record: T): Promise<Permission> {
    const p = await this.permission(ctx, record);
    if (!allows(p, action)) throw forbidden(refusal(action, this.describe(record), p));
    return p;
  }

  assertCanCreate(ctx: RequestContext): void {
    if (!roleCreates(ctx.platformRole, this.kind)) throw forbidden(this.createRefusal);
  }

  /** The shared capabilities of a record on which the caller holds `p`. */
  protected directoryCapabilities(p: Permission): DirectoryCapabilities {
    return {
      canRead: true,
      canUpdate: allows(p, 'update'),
      canManageAccess: allows(p, 'manage'),
      canTransferOwnership: allows(p, 'own'),
    };
  }
}
