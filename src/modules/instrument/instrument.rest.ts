import type { RequestContext } from '../../core/context';
import { defineRoute, type Route } from '../../core/rest/route';
import {
  echoed,
  NullableString,
  OFFSET_PAGE,
  offsetPage,
  QStr,
  refused,
  RequiredString,
  Type,
} from '../../core/rest/schema';
import { pageOf } from '../../core/rest/params';
import { AppError } from '../../core/errors';
import { INCLUDE_QUERY, withMetadata } from '../../core/rest/include';
import { INSTRUMENT, toLegacyInstrument } from './instrument.legacy';
import type { InstrumentPatch, InstrumentText } from './instrument.service';
import type { Instrument } from './instrument.entity';

const tag = 'instruments';
const TEXT_WIRE: [string, keyof InstrumentText][] = [
  ['location', 'location'],
  ['manufacturer', 'manufacturer'],
  ['model', 'model'],
  ['instrument_type', 'instrumentType'],
  ['description', 'description'],
  ['other_id', 'otherId'],
  ['other_id_source', 'otherIdSource'],
  ['status', 'status'],
];
const TEXT_PROPERTIES = Object.fromEntries(TEXT_WIRE.map(([w]) => [w, Type.Optional(NullableString())]));
const OWNERSHIP = 'ownership changes only through POST /resources/{mfid}/transfer_ownership';

const CREATE_BODY = Type.Object(
  {
    instrument_name: RequiredString(),
    instrument_id: Type.Optional(NullableString()),
    owner: Type.Optional(NullableString({ description: 'ORCID of the owner (admins only)' })),
    owner_orcid: Type.Optional(NullableString({ description: 'same as owner' })),
    public: Type.Optional(Type.Boolean()),
    ...TEXT_PROPERTIES,
    ...echoed(['unique_id', 'resource_type', 'creation_time', 'modification_time', 'scientific_metadata']),
  },
  { additionalProperties: false, title: 'InstrumentCreate' },
);
const PATCH_BODY = Type.Object(
  {
    instrument_name: Type.Optional(RequiredString()),
    instrument_id: Type.Optional(RequiredString()),
    public: Type.Optional(Type.Boolean()),
    ...TEXT_PROPERTIES,
    ...refused({ owner: OWNERSHIP, owner_orcid: OWNERSHIP }),
  },
  { additionalProperties: false, title: 'InstrumentPatch' },
);

function textInput(body: Record<string, unknown>): InstrumentText {
  const out: InstrumentText = {};
  for (const [wire, key] of TEXT_WIRE) if (wire in body) out[key] = body[wire] as string | null;
  return out;
}

/** An instrument as creates and updates return it: with its capabilities. */
async function written(ctx: RequestContext, instrument: Instrument): Promise<Record<string, unknown>> {
  return toLegacyInstrument(
    ctx,
    instrument,
    await ctx.services.instrument.policy.capabilities(ctx, instrument),
  );
}

const id = { id: 'the instrument MFID' };

export const instrumentRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/instruments',
      tag,
      summary: 'Instruments you may read',
      query: {
        instrument_name: QStr('exact name'),
        include_metadata: INCLUDE_QUERY.include_metadata,
        ...OFFSET_PAGE,
      },
      response: offsetPage(INSTRUMENT),
    },
    async (ctx, { query }) => {
      const page = await ctx.services.instrument.list(
        ctx,
        { instrumentName: query.instrument_name },
        pageOf(query, ctx.config.limits),
      );
      const items = await Promise.all(
        page.items.map(async (i) =>
          withMetadata(query, await toLegacyInstrument(ctx, i), () =>
            ctx.services.metadata.documentFor(ctx, { type: 'instrument', uniqueId: i.uniqueId, record: i }),
          ),
        ),
      );
      return { items, total: page.total };
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/instruments',
      tag,
      summary: 'Register an instrument',
      body: CREATE_BODY,
      status: 201,
      response: INSTRUMENT,
    },
    async (ctx, input) => {
      const body = input.body as Record<string, unknown>;
      const owner = body.owner as string | null | undefined;
      const ownerOrcid = body.owner_orcid as string | null | undefined;
      if (owner && ownerOrcid) {
        throw new AppError('VALIDATION', 'owner and owner_orcid must not both be given', [
          { field: 'owner', message: 'conflicts with owner_orcid' },
          { field: 'owner_orcid', message: 'conflicts with owner' },
        ]);
      }
      const instrument = await ctx.services.instrument.create(ctx, {
        instrumentName: body.instrument_name as string,
        instrumentId: body.instrument_id as string | null | undefined,
        owner: owner ?? ownerOrcid,
        public: body.public as boolean | undefined,
        ...textInput(body),
      });
      return written(ctx, instrument);
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/instruments/:id',
      tag,
      summary: 'An instrument',
      params: id,
      query: { include_metadata: INCLUDE_QUERY.include_metadata },
      response: INSTRUMENT,
    },
    async (ctx, { params, query }) => {
      const instrument = await ctx.services.instrument.get(ctx, params.id);
      const r = { type: 'instrument' as const, uniqueId: instrument.uniqueId, record: instrument };
      const out = await toLegacyInstrument(
        ctx,
        instrument,
        await ctx.services.instrument.policy.capabilities(ctx, instrument),
      );
      return withMetadata(query, out, () => ctx.services.metadata.documentFor(ctx, r));
    },
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/instruments/:id',
      tag,
      summary: 'Update an instrument',
      params: id,
      body: PATCH_BODY,
      response: INSTRUMENT,
    },
    async (ctx, input) => {
      const body = input.body as Record<string, unknown>;
      const patch: InstrumentPatch = { ...textInput(body), public: body.public as boolean | undefined };
      if ('instrument_name' in body) patch.instrumentName = body.instrument_name as string;
      if ('instrument_id' in body) patch.instrumentId = body.instrument_id as string;
      return written(ctx, await ctx.services.instrument.update(ctx, input.params.id, patch));
    },
  ),
];
