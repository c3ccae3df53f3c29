import type { RequestContext } from '../../core/context';
import { toLegacyFlags } from '../../core/rest/wire';
import { toPublicUser } from '../user/user.legacy';
import type { Instrument } from './instrument.entity';
import type { InstrumentCapabilities } from './instrument.policy';

/** The legacy REST shape of an instrument; `capabilities` only on single reads and writes. */
export async function toLegacyInstrument(
  ctx: RequestContext,
  instrument: Instrument,
  capabilities: InstrumentCapabilities | null = null,
): Promise<Record<string, unknown>> {
  const owner = await ctx.loaders.user.load(instrument.owner.uniqueId);
  return {
    unique_id: instrument.uniqueId,
    instrument_id: instrument.instrumentId,
    instrument_name: instrument.instrumentName,
    owner_orcid: instrument.owner.uniqueId,
    owner: owner ? toPublicUser(ctx, owner) : null,
    status: instrument.status,
    location: instrument.location ?? null,
    manufacturer: instrument.manufacturer ?? null,
    model: instrument.model ?? null,
    instrument_type: instrument.instrumentType ?? null,
    description: instrument.description ?? null,
    other_id: instrument.otherId ?? null,
    other_id_source: instrument.otherIdSource ?? null,
    public: instrument.public,
    creation_time: instrument.creationTime.toISOString(),
    modification_time: instrument.modificationTime.toISOString(),
    resource_type: 'instrument',
    capabilities: capabilities ? toLegacyFlags(capabilities) : null,
  };
}
