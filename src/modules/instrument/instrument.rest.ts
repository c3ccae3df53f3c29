import type { RequestContext } from '../../core/context';
import { defineRoute, type Route } from '../../core/rest/route';
import {
  echoed,
  NullableString,
  Enum,
  OFFSET_PAGE,
  offsetPage,
  QBool,
  QStr,
  sortQuery,
  refused,
  RequiredString,
  Type,
} from '../../core/rest/schema';
import { pageOf, sortOf } from '../../core/rest/params';
import { toLegacyGrant } from '../access/access.legacy';
import type { InstrumentCapabilities } from './instrument.policy';
import { INSTRUMENT_SORTS } from './instrument.service';
import { AppError } from '../../core/errors';
import { INCLUDE_QUERY, withMetadata } from '../../core/rest/include';
import { INSTRUMENT, toLegacyInstrument } from './instrument.legacy';
import type { InstrumentPatch, InstrumentText } from './instrument.service';
import { INSTRUMENT_STATUSES, type Instrument, type InstrumentStatus } from './instrument.entity';

const tag = 'instruments';
const TEXT_WIRE: [string, keyof InstrumentText][] = [
  ['location', 'location'],
  ['manufacturer', 'manufacturer'],
  ['model', 'model'],
  ['instrument_type', 'instrumentType'],
  ['description', 'description'],
  ['other_id', 'otherId'],
  ['other_id_source', 'otherIdSource'],
];
const TEXT_PROPERTIES = {
  ...Object.fromEntries(TEXT_WIRE.map(([w]) => [w, Type.Optional(NullableString())])),
  status: Type.Optional(
    Type.Union([Enum(INSTRUMENT_STATUSES), Type.Null()], {
      description: 'active (the default; null sets it back), maintenance or decommissioned',
    }),
  ),
};
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

function textInput(body: Record<string, unknown>): InstrumentText & { status?: string | null } {
  const out: InstrumentText & { status?: string | null } = {};
  for (const [wire, key] of TEXT_WIRE) if (wire in body) out[key] = body[wire] as string | null;
  if ('status' in body) out.status = body.status as string | null;
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

/** The exact text filters of `GET /instruments`: wire name, entity property. */
const EXACT_WIRE = [
  ['manufacturer', 'manufacturer'],
  ['model', 'model'],
  ['location', 'location'],
  ['description', 'description'],
  ['instrument_type', 'instrumentType'],
  ['other_id', 'otherId'],
  ['other_id_source', 'otherIdSource'],
] as const;
const AFFILIATIONS = ['owner', 'maintainer'] as const;

/**
 * An instrument as `/api/v3` answers it: with the caller's `role` (owner, admin, editor or
 * contributor from a grant; null for a plain reader) and, when asked, its `members` (the user
 * grants, null for callers who may not manage it). `/api/v2` answers today's record (`members`
 * only when asked).
 */
async function instrumentRecord(
  ctx: RequestContext,
  instrument: Instrument,
  capabilities: InstrumentCapabilities | null,
  includeMembers?: boolean,
): Promise<Record<string, unknown>> {
  const out = await toLegacyInstrument(ctx, instrument, capabilities);
  if (ctx.wireVersion >= 3) {
    const p = await ctx.services.instrument.policy.permission(ctx, instrument);
    out.role = p === 'viewer' ? null : p;
  }
  if (includeMembers) {
    const listing = await ctx.services.grant.list(ctx, instrument.uniqueId);
    out.members = listing.complete
      ? listing.grants.filter((g) => g.principal.type === 'user').map((g) => toLegacyGrant(ctx, g))
      : null;
  }
  return out;
}

/**
 * The statuses an instrument list keeps when the caller names none: on `/api/v3` the active
 * instruments (the 3.2 client's documented default), except for an exact lookup by slug or
 * name, which finds its instrument in any status; on `/api/v2` every status, as the 3.1 client
 * always had.
 */
function defaultStatus(
  ctx: RequestContext,
  query: { instrument_id?: string; instrument_name?: string },
): InstrumentStatus[] | undefined {
  if (ctx.wireVersion < 3) return undefined;
  if (query.instrument_id !== undefined || query.instrument_name !== undefined) return undefined;
  return ['active'];
}

export const instrumentRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/instruments',
      tag,
      summary: 'Instruments you may read',
      query: {
        instrument_name: QStr('exact name'),
        instrument_id: QStr('the slug: exact and case-insensitive (`total` is the exact count, 0 or 1)'),
        ...Object.fromEntries(EXACT_WIRE.map(([w]) => [w, QStr(`exact ${w.replace(/_/g, ' ')}`)])),
        owner_id: QStr("the owner's ORCID or MFID"),
        status: Type.Optional(
          Type.Array(Enum(INSTRUMENT_STATUSES), {
            description:
              'one of these statuses (repeatable). Absent on /api/v3: active only, unless instrument_id or instrument_name looks one up (every status); absent on /api/v2: every status',
          }),
        ),
        affiliation: Type.Optional(
          Type.Array(Enum(AFFILIATIONS), {
            description: 'instruments you own (owner) or maintain (maintainer: an editor or admin grant)',
          }),
        ),
        ...sortQuery(INSTRUMENT_SORTS, 'by name'),
        include_metadata: INCLUDE_QUERY.include_metadata,
        include_owner: QBool('`owner` (always included)', true),
        include_members: QBool('`members`: the user grants (null unless you may manage the instrument)'),
        include_total: QBool('`total` (always computed: the list is small)', true),
        ...OFFSET_PAGE,
      },
      response: offsetPage(INSTRUMENT),
    },
    async (ctx, { query }) => {
      const exact: Record<string, string> = {};
      for (const [wire, field] of EXACT_WIRE) {
        const value = (query as Record<string, unknown>)[wire];
        if (typeof value === 'string') exact[field] = value;
      }
      const page = await ctx.services.instrument.list(
        ctx,
        {
          instrumentName: query.instrument_name,
          instrumentId: query.instrument_id,
          exact,
          ownerId: query.owner_id,
          status: query.status ?? defaultStatus(ctx, query),
          affiliation: query.affiliation,
          sort: sortOf(query),
        },
        pageOf(query, ctx.config.limits),
      );
      const items = await Promise.all(
        page.items.map(async (i) =>
          withMetadata(query, await instrumentRecord(ctx, i, null, query.include_members), () =>
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
      query: {
        include_metadata: INCLUDE_QUERY.include_metadata,
        include_owner: QBool('`owner` (always included)', true),
        include_members: QBool('`members`: the user grants (null unless you may manage the instrument)'),
      },
      response: INSTRUMENT,
    },
    async (ctx, { params, query }) => {
      const instrument = await ctx.services.instrument.get(ctx, params.id);
      const r = { type: 'instrument' as const, uniqueId: instrument.uniqueId, record: instrument };
      const out = await instrumentRecord(
        ctx,
        instrument,
        await ctx.services.instrument.policy.capabilities(ctx, instrument),
        query.include_members,
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
  defineRoute(
    {
      method: 'post',
      path: '/instruments/:id/status',
      tag,
      summary: "Change an instrument's lifecycle status (whoever may edit it)",
      params: id,
      query: {
        status: Enum(INSTRUMENT_STATUSES, { description: 'active, maintenance or decommissioned' }),
      },
      response: INSTRUMENT,
    },
    async (ctx, { params, query }) => {
      const instrument = await ctx.services.instrument.setStatus(ctx, params.id, query.status);
      return instrumentRecord(
        ctx,
        instrument,
        await ctx.services.instrument.policy.capabilities(ctx, instrument),
      );
    },
  ),
];
