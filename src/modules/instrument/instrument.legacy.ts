import { NullableString, Type } from '../../core/rest/schema';
import type { RequestContext } from '../../core/context';
import { CAPABILITY_VALUE, toWireCapabilities } from '../../core/rest/wire';
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
    capabilities: capabilities ? toWireCapabilities(ctx, capabilities, true) : null,
  };
}

const nullable = NullableString();
const nullableObject = Type.Union([Type.Object({}), Type.Null()]);
/** An instrument on the legacy wire. */
export const INSTRUMENT = Type.Object(
  {
    unique_id: Type.String(),
    instrument_id: nullable,
    instrument_name: Type.String(),
    owner_orcid: Type.String(),
    owner: nullableObject,
    status: nullable,
    location: nullable,
    manufacturer: nullable,
    model: nullable,
    instrument_type: nullable,
    description: nullable,
    other_id: nullable,
    other_id_source: nullable,
    public: Type.Boolean(),
    creation_time: Type.String({ format: 'date-time' }),
    modification_time: Type.String({ format: 'date-time' }),
    resource_type: Type.Literal('instrument'),
    capabilities: Type.Union([Type.Record(Type.String(), CAPABILITY_VALUE), Type.Null()]),
    scientific_metadata: Type.Optional(nullableObject),
    role: Type.Optional(NullableString({ description: "/api/v3: the caller's permission (null: a reader)" })),
    members: Type.Optional(
      Type.Union([Type.Array(Type.Object({})), Type.Null()], {
        description: 'with include_members: the user grants',
      }),
    ),
  },
  { title: 'Instrument' },
);
