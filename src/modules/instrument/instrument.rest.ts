import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import type { RequestContext } from '../../core/context';
import { bodyObject, qOffsetPage, qStr } from '../../core/rest/params';
import { optionalBool, optionalString, pickFields, requiredString, type Body } from '../../core/rest/body';
import { AppError } from '../../core/errors';
import { toLegacyResource, withMetadata } from '../resource/resource.legacy';
import { toLegacyInstrument } from './instrument.legacy';
import type { InstrumentPatch, InstrumentText } from './instrument.service';
import type { Instrument } from './instrument.entity';

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
const TEXT_FIELDS = TEXT_WIRE.map(([w]) => w);
const OWNERSHIP = 'ownership changes only through POST /resources/{mfid}/transfer_ownership';

function textInput(body: Body): InstrumentText {
  const out: InstrumentText = {};
  for (const [wire, key] of TEXT_WIRE) if (wire in body) out[key] = optionalString(body, wire);
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

export function instrumentRoutes(router: Router): void {
  router.get(
    '/instruments',
    handle(async (ctx, req) => {
      const page = await ctx.services.instrument.list(
        ctx,
        { instrumentName: qStr(req.query, 'instrument_name') },
        qOffsetPage(req.query, ctx.config.limits),
      );
      const items = await Promise.all(
        page.items.map(async (i) =>
          withMetadata(
            ctx,
            ctx.services.metadata,
            { type: 'instrument', uniqueId: i.uniqueId, record: i },
            req.query,
            await toLegacyInstrument(ctx, i),
          ),
        ),
      );
      return { items, total: page.total };
    }),
  );
  router.post(
    '/instruments',
    handle(async (ctx, req) => {
      const body = pickFields(
        bodyObject(req.body),
        ['instrument_name', 'instrument_id', 'owner', 'owner_orcid', 'public', ...TEXT_FIELDS],
        {
          ignore: ['unique_id', 'resource_type', 'creation_time', 'modification_time', 'scientific_metadata'],
        },
      );
      const owner = optionalString(body, 'owner');
      const ownerOrcid = optionalString(body, 'owner_orcid');
      if (owner && ownerOrcid) {
        throw new AppError('VALIDATION', 'owner and owner_orcid must not both be given', [
          { field: 'owner', message: 'conflicts with owner_orcid' },
          { field: 'owner_orcid', message: 'conflicts with owner' },
        ]);
      }
      const instrument = await ctx.services.instrument.create(ctx, {
        instrumentName: requiredString(body, 'instrument_name'),
        instrumentId: optionalString(body, 'instrument_id'),
        owner: owner ?? ownerOrcid,
        public: optionalBool(body, 'public'),
        ...textInput(body),
      });
      return written(ctx, instrument);
    }, 201),
  );
  router.get(
    '/instruments/:id',
    handle(async (ctx, req) => {
      const instrument = await ctx.services.instrument.get(ctx, param(req, 'id'));
      return toLegacyResource(
        ctx,
        { type: 'instrument', uniqueId: instrument.uniqueId, record: instrument },
        req.query,
      );
    }),
  );
  router.patch(
    '/instruments/:id',
    handle(async (ctx, req) => {
      const body = pickFields(
        bodyObject(req.body),
        ['instrument_name', 'instrument_id', 'public', ...TEXT_FIELDS],
        {
          rejectWith: { owner: OWNERSHIP, owner_orcid: OWNERSHIP },
        },
      );
      const patch: InstrumentPatch = { ...textInput(body), public: optionalBool(body, 'public') };
      if ('instrument_name' in body) patch.instrumentName = requiredString(body, 'instrument_name');
      if ('instrument_id' in body) patch.instrumentId = requiredString(body, 'instrument_id');
      return written(ctx, await ctx.services.instrument.update(ctx, param(req, 'id'), patch));
    }),
  );
}
