import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { bodyObject, qLimit, qStr } from '../../core/rest/params';
import { optionalBool, optionalString, pickFields, type Body } from '../../core/rest/body';
import { decodeCursor } from '../../core/pagination';
import { validationError } from '../../core/errors';
import { SAMPLE_TEXT, SAMPLE_TEXT_FIELDS, type SampleText } from './sample.fields';
import type { SampleCreateInput, SamplePatch } from './sample.service';
import { parseSampleFilter, sampleDetail, sampleItems, toLegacySample } from './sample.legacy';

const TEXT_WIRE = SAMPLE_TEXT_FIELDS.map((k) => [SAMPLE_TEXT[k].wire, k] as const);
const CREATE_FIELDS = [
  ...TEXT_WIRE.map(([w]) => w),
  'unique_id',
  'public',
  'project_id',
  'project_mfid',
  'owner',
  'owner_orcid',
  'scientific_metadata',
];
/** Read-only fields clients echo back from a record they read: dropped on create. */
const ECHOED = [
  'creation_time',
  'modification_time',
  'resource_type',
  'capabilities',
  'project',
  'datasets',
  'links',
  'deletion_request',
];
const NOT_UPDATABLE: Record<string, string> = {
  project_id: 'the project changes only through project reassignment',
  project_mfid: 'the project changes only through project reassignment',
  owner: 'ownership changes only through POST /resources/{mfid}/transfer_ownership',
  owner_orcid: 'ownership changes only through POST /resources/{mfid}/transfer_ownership',
};

function textFields(body: Body): SampleText {
  const out: SampleText = {};
  for (const [wire, key] of TEXT_WIRE) if (wire in body) out[key] = optionalString(body, wire);
  return out;
}

function parseSampleCreate(raw: unknown): SampleCreateInput {
  const body = pickFields(bodyObject(raw), CREATE_FIELDS, { ignore: ECHOED });
  return {
    ...textFields(body),
    uniqueId: optionalString(body, 'unique_id'),
    public: optionalBool(body, 'public'),
    projectId: optionalString(body, 'project_id'),
    projectMfid: optionalString(body, 'project_mfid'),
    owner: optionalString(body, 'owner'),
    ownerOrcid: optionalString(body, 'owner_orcid'),
    scientificMetadata: body.scientific_metadata as SampleCreateInput['scientificMetadata'],
  };
}

function parseSamplePatch(raw: unknown): SamplePatch {
  const body = pickFields(bodyObject(raw), [...TEXT_WIRE.map(([w]) => w), 'public'], {
    rejectWith: NOT_UPDATABLE,
  });
  const patch: SamplePatch = textFields(body);
  if ('public' in body) {
    const value = optionalBool(body, 'public');
    if (value === undefined || body.public === null) throw validationError('public', 'must be true or false');
    patch.public = value;
  }
  return patch;
}

export function sampleRoutes(router: Router): void {
  router.get(
    '/samples',
    handle(async (ctx, req) => {
      const filter = parseSampleFilter(req.query);
      const limit = qLimit(req.query, ctx.config.limits.defaultPageSize, ctx.config.limits.maxPageSize);
      const page = await ctx.services.sample.list(ctx, filter, {
        limit,
        cursor: decodeCursor(qStr(req.query, 'cursor')),
      });
      const [items, total] = await Promise.all([
        sampleItems(ctx, page.items, req.query),
        ctx.services.sample.count(ctx, filter),
      ]);
      return { items, next_cursor: page.nextCursor, total };
    }),
  );
  router.post(
    '/samples',
    handle(async (ctx, req) => {
      const sample = await ctx.services.sample.create(ctx, parseSampleCreate(req.body));
      return toLegacySample(ctx, sample, {
        includeOwner: true,
        capabilities: await ctx.services.sample.policy.capabilities(ctx, sample),
      });
    }, 201),
  );
  router.get(
    '/samples/:id',
    handle(async (ctx, req) =>
      sampleDetail(ctx, await ctx.services.sample.get(ctx, param(req, 'id')), req.query),
    ),
  );
  router.patch(
    '/samples/:id',
    handle(async (ctx, req) => {
      const sample = await ctx.services.sample.update(ctx, param(req, 'id'), parseSamplePatch(req.body));
      return toLegacySample(ctx, sample, {
        includeOwner: true,
        capabilities: await ctx.services.sample.policy.capabilities(ctx, sample),
      });
    }),
  );
}
