import type { RequestContext } from '../../core/context';
import { forbidden } from '../../core/errors';
import type { AccessService } from '../access/access.service';
import { allows, type Action, type Permission } from '../access/permission';
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

  async permission(ctx: RequestContext, instrument: Instrument): Promise<Permission> {
    const p = await this.access.effective(ctx, {
      uniqueId: instrument.uniqueId,
      type: 'instrument',
      ownerId: instrument.owner.uniqueId,
    });
    return p ?? 'viewer';
  }

  async assertCan(ctx: RequestContext, action: Action, instrument: Instrument): Promise<void> {
    if (!allows(await this.permission(ctx, instrument), action)) {
      throw forbidden(`You may not ${action} instrument ${instrument.instrumentName}`);
    }
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
