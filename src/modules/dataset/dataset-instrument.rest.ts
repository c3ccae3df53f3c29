import { defineRoute, type Route } from '../../core/rest/route';
import { NullableString, Type } from '../../core/rest/schema';
import { INSTRUMENT_ASSIGNMENT, toLegacyInstrumentAssignment } from './dataset-instrument.legacy';

/** Assigning a dataset's instrument (the 3.2 client's `assign_instrument`). */
export const datasetInstrumentRoutes: Route[] = [
  defineRoute(
    {
      method: 'put',
      path: '/datasets/:id/instrument',
      tag: 'datasets',
      summary: "Assign (or change) a dataset's registered instrument",
      description:
        'Needs editor on the dataset and read access to the instrument (an unknown one is 404). Ordinary updates may only repeat the instrument.',
      params: { id: 'the dataset MFID' },
      body: Type.Object(
        {
          instrument_id: Type.Optional(NullableString({ description: 'the instrument slug' })),
          instrument_mfid: Type.Optional(
            NullableString({ description: 'or its MFID (both given: they must name the same one)' }),
          ),
        },
        { additionalProperties: false, title: 'DatasetInstrument' },
      ),
      response: INSTRUMENT_ASSIGNMENT,
    },
    async (ctx, { params, body }) => {
      const b = body as { instrument_id?: unknown; instrument_mfid?: unknown };
      const assignment = await ctx.services.dataset.assignInstrument(ctx, params.id, {
        instrumentId: b.instrument_id,
        instrumentMfid: b.instrument_mfid,
      });
      return toLegacyInstrumentAssignment(assignment);
    },
  ),
];
