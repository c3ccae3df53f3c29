import type { RequestContext } from '../../core/context';
import { forbidden } from '../../core/errors';
import type { AccessService, AccessSubject } from '../access/access.service';
import { allows, refusal, type Action, type Permission } from '../access/permission';
import type { Instrument } from './instrument.entity';

export interface InstrumentCapabilities {
  canRead: boolean;
  canUpdate: boolean;
  canManageAccess: boolean;
  canTransferOwnership: boolean;
}

/**
 * Instruments are reference records every authenticated caller may read. Changing one needs a
 * grant on it (or ownership: the operator); registering one needs platform admin.
 */
export class InstrumentPolicy {
  constructor(private readonly access: AccessService) {}

  subject(instrument: Instrument): AccessSubject {
    return {
      uniqueId: instrument.uniqueId,
      type: 'instrument',
      ownerId: instrument.owner.uniqueId,
      public: instrument.public,
    };
  }

  /** Every authenticated caller reads instruments: the floor is viewer. */
  async permissionOf(ctx: RequestContext, subject: AccessSubject): Promise<Permission> {
    return (await this.access.effective(ctx, subject)) ?? 'viewer';
  }

  permission(ctx: RequestContext, instrument: Instrument): Promise<Permission> {
    return this.permissionOf(ctx, this.subject(instrument));
  }

  async assertCan(ctx: RequestContext, action: Action, instrument: Instrument): Promise<Permission> {
    const p = await this.permission(ctx, instrument);
    if (!allows(p, action)) {
      throw forbidden(refusal(action, `instrument ${instrument.instrumentName}`, p));
    }
    return p;
  }

  /** Changing an instrument needs `update` on it; making it public or private needs `manage`. */
  async assertCanUpdate(
    ctx: RequestContext,
    instrument: Instrument,
    changesPublic: boolean,
  ): Promise<Permission> {
    const permission = await this.assertCan(ctx, 'update', instrument);
    if (changesPublic && !allows(permission, 'manage')) {
      throw forbidden('Making an instrument public or private needs admin permission on it');
    }
    return permission;
  }

  assertCanCreate(ctx: RequestContext): void {
    if (!ctx.isPlatformAdmin) throw forbidden('Only platform administrators may register instruments');
  }

  async capabilities(ctx: RequestContext, instrument: Instrument): Promise<InstrumentCapabilities> {
    const p = await this.permission(ctx, instrument);
    return {
      canRead: true,
      canUpdate: allows(p, 'update'),
      canManageAccess: allows(p, 'manage'),
      canTransferOwnership: allows(p, 'own'),
    };
  }
}
