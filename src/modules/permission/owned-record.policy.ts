import type { RequestContext } from '../../core/context';
import { forbidden, notFound } from '../../core/errors';
import type { Sql } from '../../core/db/sql';
import type { AccessService, AccessSubject } from './access.service';
import { allows, refusal, type Action, type Permission } from './permission';

/** A dataset or a sample: an owned record that may sit in a project and may be public. */
export interface OwnedRecord {
  uniqueId: string;
  owner: { uniqueId: string };
  project?: { uniqueId: string } | null;
  /** a dataset's instrument (bound service accounts reach the dataset through it) */
  instrument?: { uniqueId: string } | null;
  public: boolean;
}

/** What every owned record's capabilities share (spec §3: what the caller may do next). */
export interface RecordCapabilities {
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
 * The policy of datasets and samples (DESIGN §5): owner, grants, project membership and the
 * public flag, computed by the access service. Unreadable records do not exist for the caller
 * (404); readable records the caller may not change answer 403 naming the level needed.
 * `visibleWhere` filters every query on the record's table.
 */
export abstract class OwnedRecordPolicy<T extends OwnedRecord> {
  protected constructor(
    protected readonly access: AccessService,
    /** the record type as the access service and error messages name it */
    private readonly type: 'dataset' | 'sample',
    /** the table alias visibility conditions use by default */
    private readonly alias: string,
  ) {}

  subject(record: T): AccessSubject {
    return {
      uniqueId: record.uniqueId,
      type: this.type,
      ownerId: record.owner.uniqueId,
      projectMfid: record.project?.uniqueId ?? null,
      instrumentMfid: record.instrument?.uniqueId ?? null,
      public: record.public,
    };
  }

  /** The permission on a record described by `subject` (previews pass the record as it would become). */
  permissionOf(ctx: RequestContext, subject: AccessSubject): Promise<Permission | null> {
    return this.access.effective(ctx, subject);
  }

  permission(ctx: RequestContext, record: T): Promise<Permission | null> {
    return this.permissionOf(ctx, this.subject(record));
  }

  /** Unreadable records do not exist for the caller: 404. Readable but not allowed: 403. */
  async assertCan(ctx: RequestContext, action: Action, record: T): Promise<Permission> {
    const p = await this.permission(ctx, record);
    const label = this.type === 'dataset' ? 'Dataset' : 'Sample';
    if (!p) throw notFound(label, record.uniqueId);
    if (!allows(p, action)) throw forbidden(refusal(action, `${this.type} ${record.uniqueId}`, p));
    return p;
  }

  /** The condition keeping the rows of the record's table under `alias` the caller may read (null: all). */
  visibleWhere(ctx: RequestContext, alias = this.alias): Promise<Sql | null> {
    return this.access.readableCondition(ctx, this.type, alias);
  }

  protected async recordCapabilities(ctx: RequestContext, record: T): Promise<RecordCapabilities> {
    const p = await this.permission(ctx, record);
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
