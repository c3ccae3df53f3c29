import type { RequestContext } from '../../core/context';
import { forbidden, notFound } from '../../core/errors';
import type { Sql } from '../../core/db/sql';
import type { AccessService, AccessSubject } from '../access/access.service';
import { allows, refusal, type Action, type Permission } from '../access/permission';
import type { Sample } from './sample.entity';

export interface SampleCapabilities {
  canRead: boolean;
  canUpdate: boolean;
  canEditMetadata: boolean;
  canManageAccess: boolean;
  canTransferOwnership: boolean;
  canReassignProject: boolean;
  canRequestDeletion: boolean;
  canDelete: boolean;
}

/**
 * Who may do what with a sample: the same rules as datasets (owner, project membership, grants,
 * public), computed by the access service. `visibleWhere` filters every sample query.
 */
export class SamplePolicy {
  constructor(private readonly access: AccessService) {}

  subject(sample: Sample): AccessSubject {
    return {
      uniqueId: sample.uniqueId,
      type: 'sample',
      ownerId: sample.owner.uniqueId,
      projectMfid: sample.project?.uniqueId ?? null,
      public: sample.public,
    };
  }

  /** The permission on a record described by `subject` (previews pass the record as it would become). */
  permissionOf(ctx: RequestContext, subject: AccessSubject): Promise<Permission | null> {
    return this.access.effective(ctx, subject);
  }

  permission(ctx: RequestContext, sample: Sample): Promise<Permission | null> {
    return this.permissionOf(ctx, this.subject(sample));
  }

  /** Unreadable samples do not exist for the caller: 404. Readable but not allowed: 403. */
  async assertCan(ctx: RequestContext, action: Action, sample: Sample): Promise<Permission> {
    const p = await this.permission(ctx, sample);
    if (!p) throw notFound('Sample', sample.uniqueId);
    if (!allows(p, action)) throw forbidden(refusal(action, `sample ${sample.uniqueId}`, p));
    return p;
  }

  /** The condition keeping the rows of `sample <alias>` the caller may read (null: all). */
  visibleWhere(ctx: RequestContext, alias = 's'): Promise<Sql | null> {
    return this.access.readableCondition(ctx, alias);
  }

  async capabilities(ctx: RequestContext, sample: Sample): Promise<SampleCapabilities> {
    const p = await this.permission(ctx, sample);
    return {
      canRead: allows(p, 'read'),
      canUpdate: allows(p, 'update'),
      canEditMetadata: allows(p, 'contribute'),
      canManageAccess: allows(p, 'manage'),
      canTransferOwnership: allows(p, 'own'),
      canReassignProject: allows(p, 'own'),
      canRequestDeletion: allows(p, 'manage'),
      canDelete: ctx.isPlatformAdmin,
    };
  }
}
