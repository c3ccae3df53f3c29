import { NullableString, Type } from '../../core/rest/schema';
import type { Instrument } from '../instrument/instrument.entity';
import type { InstrumentAssignment } from './dataset-instrument';

/** An instrument's identity on the wire (the 3.2 client's `InstrumentReference`). */
function instrumentRef(i: Instrument): Record<string, unknown> {
  return { unique_id: i.uniqueId, instrument_id: i.instrumentId, instrument_name: i.instrumentName };
}

/** `PUT /datasets/{id}/instrument` on the wire (the 3.2 client's `InstrumentAssignment`). */
export function toLegacyInstrumentAssignment(a: InstrumentAssignment): Record<string, unknown> {
  return {
    dataset_mfid: a.datasetId,
    previous_instrument: a.previous ? instrumentRef(a.previous) : null,
    previous_instrument_name: a.previousName,
    instrument: instrumentRef(a.instrument),
  };
}

const INSTRUMENT_REF = Type.Object(
  { unique_id: Type.String(), instrument_id: NullableString(), instrument_name: Type.String() },
  { title: 'InstrumentRef' },
);

export const INSTRUMENT_ASSIGNMENT = Type.Object(
  {
    dataset_mfid: Type.String(),
    previous_instrument: Type.Union([INSTRUMENT_REF, Type.Null()], {
      description: 'the registered instrument it had, if any',
    }),
    previous_instrument_name: NullableString({
      description: 'the instrument name it showed (a legacy record keeps only this)',
    }),
    instrument: INSTRUMENT_REF,
  },
  { title: 'InstrumentAssignment' },
);
