import type { RequestContext } from '../../core/context';
import type { AccessService, AccessSubject } from '../access/access.service';
import { DirectoryRecordPolicy, type DirectoryCapabilities } from '../access/directory-record.policy';
import type { Instrument } from './instrument.entity';

export type InstrumentCapabilities = DirectoryCapabilities;

/**
 * Instruments are reference records every authenticated caller may read. Changing one needs a
 * grant on it (or ownership: the operator); registering one needs platform admin.
 */
export class InstrumentPolicy extends DirectoryRecordPolicy<Instrument> {
  constructor(access: AccessService) {
    super(access, 'Only platform administrators may register instruments');
  }

  subject(instrument: Instrument): AccessSubject {
    return {
      uniqueId: instrument.uniqueId,
      type: 'instrument',
      ownerId: instrument.owner.uniqueId,
      public: instrument.public,
    };
  }

  protected describe(instrument: Instrument): string {
    return `instrument ${instrument.instrumentName}`;
  }

  async capabilities(ctx: RequestContext, instrument: Instrument): Promise<InstrumentCapabilities> {
    return this.directoryCapabilities(await this.permission(ctx, instrument));
  }
}
