import type { Router } from 'express';
import type { RequestContext } from '../../core/context';
import { handle, param } from '../../core/rest/handler';
import { bodyObject, qBool, qLimit, qStr, type Query } from '../../core/rest/params';
import { optionalBool, optionalString, pickFields, type Body } from '../../core/rest/body';
import { decodeCursor } from '../../core/pagination';
import { validationError } from '../../core/errors';
import { TEXT_FIELDS, UPDATABLE } from './dataset.fields';
import type { DatasetCreateInput, DatasetPatch } from './dataset.service';
import { extrasFlags, parseFilter, toLegacyDataset } from './dataset.legacy';

const TEXT_WIRE = TEXT_FIELDS.map((k) => [UPDATABLE[k].wire, k] as const);
const CREATE_FIELDS = [
  ...TEXT_WIRE.map(([w]) => w),
  'unique_id',
  'public',
  'project_id',
  'project_mfid',
  'instrument_name',
  'instrument_id',
  'instrument_mfid',
  'owner',
  'owner_orcid',
  'scientific_metadata',
];
/** Read-only fields clients echo back from a record they read: dropped on create. */
const ECHOED = [
  'size',
  'creation_time',
  'modification_time',
  'resource_type',
  'capabilities',
  'project_relation',
  'project',
  'instrument',
  'links',
  'deletion_request',
];
/**
 * Sent on create by the 3.1 client's parsers (`crucible upload`, `dataset create`: the working
 * directory) although datasets have no such field (spec 2.1 rule 4): dropped, not stored, so
 * those commands keep working. On update it is refused like any unknown field.
 */
const DROPPED_ON_CREATE = ['source_folder'];
const NOT_UPDATABLE: Record<string, string> = {
  project_id: 'the project changes only through project reassignment',
  project_mfid: 'the project changes only through project reassignment',
  owner: 'ownership changes only through POST /resources/{mfid}/transfer_ownership',
  owner_orcid: 'ownership changes only through POST /resources/{mfid}/transfer_ownership',
};

function textFields(body: Body): Partial<Record<(typeof TEXT_FIELDS)[number], string | null>> {
  const out: Partial<Record<(typeof TEXT_FIELDS)[number], string | null>> = {};
  for (const [wire, key] of TEXT_WIRE) if (wire in body) out[key] = optionalString(body, wire);
  return out;
}

function parseCreate(raw: unknown): DatasetCreateInput {
  const body = pickFields(bodyObject(raw), CREATE_FIELDS, { ignore: [...ECHOED, ...DROPPED_ON_CREATE] });
  return {
    ...textFields(body),
    uniqueId: optionalString(body, 'unique_id'),
    public: optionalBool(body, 'public'),
    projectId: optionalString(body, 'project_id'),
    projectMfid: optionalString(body, 'project_mfid'),
    instrumentName: optionalString(body, 'instrument_name'),
    instrumentId: optionalString(body, 'instrument_id'),
    instrumentMfid: optionalString(body, 'instrument_mfid'),
    owner: optionalString(body, 'owner'),
    ownerOrcid: optionalString(body, 'owner_orcid'),
    scientificMetadata: body.scientific_metadata as DatasetCreateInput['scientificMetadata'],
  };
}

function parsePatch(raw: unknown): DatasetPatch {
  const accepted = [
    ...TEXT_WIRE.map(([w]) => w),
    'public',
    'instrument_id',
    'instrument_name',
    'instrument_mfid',
  ];
  const body = pickFields(bodyObject(raw), accepted, { rejectWith: NOT_UPDATABLE });
  const patch: DatasetPatch = { ...textFields(body) };
  if ('public' in body) {
    const value = optionalBool(body, 'public');
    if (value === undefined || body.public === null) throw validationError('public', 'must be true or false');
    patch.public = value;
  }
  for (const [wire, key] of [
    ['instrument_id', 'instrumentId'],
    ['instrument_name', 'instrumentName'],
    ['instrument_mfid', 'instrumentMfid'],
  ] as const) {
    if (wire in body) patch[key] = optionalString(body, wire);
  }
  return patch;
}

async function detail(ctx: RequestContext, id: string, q: Query): Promise<Record<string, unknown>> {
  const ds = await ctx.services.dataset.get(ctx, id);
  return toLegacyDataset(ctx, ds, {
    includeOwner: qBool(q, 'include_owner', true),
    capabilities: await ctx.services.dataset.policy.capabilities(ctx, ds),
    ...extrasFlags(q),
    includeDeletion: true,
  });
}

export function datasetRoutes(router: Router): void {
  router.get(
    '/datasets',
    handle(async (ctx, req) => {
      const filter = parseFilter(req.query);
      const limit = qLimit(req.query, ctx.config.limits.defaultPageSize, ctx.config.limits.maxPageSize);
      const page = await ctx.services.dataset.list(ctx, filter, {
        limit,
        cursor: decodeCursor(qStr(req.query, 'cursor')),
      });
      const includeOwner = qBool(req.query, 'include_owner', false);
      const extras = extrasFlags(req.query);
      const [items, total] = await Promise.all([
        Promise.all(
          page.items.map((ds) =>
            toLegacyDataset(ctx, ds, {
              includeOwner,
              ...extras,
              projectRelation: page.relations ? (page.relations.get(ds.uniqueId) ?? null) : undefined,
            }),
          ),
        ),
        ctx.services.dataset.count(ctx, filter),
      ]);
      return { items, next_cursor: page.nextCursor, total };
    }),
  );
  router.post(
    '/datasets',
    handle(async (ctx, req) => {
      const ds = await ctx.services.dataset.create(ctx, parseCreate(req.body));
      return toLegacyDataset(ctx, ds, {
        includeOwner: true,
        capabilities: await ctx.services.dataset.policy.capabilities(ctx, ds),
      });
    }, 201),
  );
  router.get(
    '/datasets/:id',
    handle((ctx, req) => detail(ctx, param(req, 'id'), req.query)),
  );
  router.patch(
    '/datasets/:id',
    handle(async (ctx, req) => {
      const ds = await ctx.services.dataset.update(ctx, param(req, 'id'), parsePatch(req.body));
      return toLegacyDataset(ctx, ds, {
        includeOwner: true,
        capabilities: await ctx.services.dataset.policy.capabilities(ctx, ds),
      });
    }),
  );
}
