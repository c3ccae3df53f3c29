import type { RequestContext } from '../../core/context';
import { forbidden, notFound } from '../../core/errors';
import type { Sql } from '../../core/db/sql';
import type { AccessService, AccessSubject } from '../access/access.service';
import { allows, refusal, type Action, type Permission } from '../access/permission';
import type { Dataset } from './dataset.entity';

export interface DatasetCapabilities {
  canRead: boolean;
  canUpdate: boolean;
  canAddFiles: boolean;
  canEditMetadata: boolean;
  canManageAccess: boolean;
  canTransferOwnership: boolean;
  canReassignProject: boolean;
  canRequestDeletion: boolean;
  canDelete: boolean;
  /** datasets have no lifecycle status: always false (spec 2.1 rule 7) */
  canChangeStatus: boolean;
}

/** Who may do what with a dataset (DESIGN §5); `visibleWhere` filters every dataset query. */
export class DatasetPolicy {
  constructor(private readonly access: AccessService) {}

  subject(ds: Dataset): AccessSubject {
    return {
      uniqueId: ds.uniqueId,
      type: 'dataset',
      ownerId: ds.owner.uniqueId,
      projectMfid: ds.project?.uniqueId ?? null,
      public: ds.public,
    };
  }

  /** The permission on a record described by `subject` (previews pass the record as it would become). */
  permissionOf(ctx: RequestContext, subject: AccessSubject): Promise<Permission | null> {
    return this.access.effective(ctx, subject);
  }

  permission(ctx: RequestContext, ds: Dataset): Promise<Permission | null> {
    return this.permissionOf(ctx, this.subject(ds));
  }

  /** Unreadable datasets do not exist for the caller: 404. Readable but not allowed: 403. */
  async assertCan(ctx: RequestContext, action: Action, ds: Dataset): Promise<Permission> {
    const p = await this.permission(ctx, ds);
    if (!p) throw notFound('Dataset', ds.uniqueId);
    if (!allows(p, action)) throw forbidden(refusal(action, `dataset ${ds.uniqueId}`, p));
    return p;
  }

  /** The condition keeping the rows of `dataset <alias>` the caller may read (null: all). */
  visibleWhere(ctx: RequestContext, alias = 'd'): Promise<Sql | null> {
    return this.access.readableCondition(ctx, alias);
  }

  async capabilities(ctx: RequestContext, ds: Dataset): Promise<DatasetCapabilities> {
    const p = await this.permission(ctx, ds);
    return {
      canRead: allows(p, 'read'),
      canUpdate: allows(p, 'update'),
      canAddFiles: allows(p, 'contribute'),
      canEditMetadata: allows(p, 'contribute'),
      canManageAccess: allows(p, 'manage'),
      canTransferOwnership: allows(p, 'own'),
      canReassignProject: allows(p, 'own'),
      canRequestDeletion: allows(p, 'manage'),
      canDelete: ctx.isPlatformAdmin,
      canChangeStatus: false,
    };
  }
}
