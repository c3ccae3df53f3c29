import type { RequestContext } from '../../core/context';
import type { AccessService, AccessSubject } from '../permission/access.service';
import { DirectoryRecordPolicy, type DirectoryCapabilities } from '../permission/directory-record.policy';
import { forbidden } from '../../core/errors';
import { allows, type Permission } from '../permission/permission';
import type { Instrument } from './instrument.entity';

export type InstrumentCapabilities = DirectoryCapabilities;

/**
 * Instruments are reference records every authenticated caller may read. Changing one needs a
 * grant on it (or ownership: the operator); registering one needs platform admin.
 */
export class InstrumentPolicy extends DirectoryRecordPolicy<Instrument> {
  constructor(access: AccessService) {
    super(access, 'Only platform administrators may register instruments', 'instrument');
  }

  subject(instrument: Instrument): AccessSubject {
    return {
      uniqueId: instrument.uniqueId,
      type: 'instrument',
      ownerId: instrument.owner.uniqueId,
      public: instrument.public,
    };
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

  protected describe(instrument: Instrument): string {
    return `instrument ${instrument.instrumentName}`;
  }

  async capabilities(ctx: RequestContext, instrument: Instrument): Promise<InstrumentCapabilities> {
    return this.directoryCapabilities(await this.permission(ctx, instrument));
  }
}
