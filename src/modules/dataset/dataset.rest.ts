import type { Router } from 'express';
import { recordRoutes } from '../../core/rest/record-routes';
import { optionalString } from '../../core/rest/body';
import { handle } from '../../core/rest/handler';
import type { DatasetFacets } from './dataset.facets';
import { parseRecordCreate, parseRecordPatch } from '../owned-record/owned-record.legacy';
import { UPDATABLE } from './dataset.fields';
import type { DatasetCreateInput, DatasetPatch } from './dataset.service';
import { datasetDetail, datasetItems, parseFilter, toLegacyDataset } from './dataset.legacy';

const INSTRUMENT_FIELDS = [
  ['instrument_name', 'instrumentName'],
  ['instrument_id', 'instrumentId'],
  ['instrument_mfid', 'instrumentMfid'],
] as const;
const INSTRUMENT_WIRE = INSTRUMENT_FIELDS.map(([wire]) => wire);
/** Read-only fields of a dataset that clients echo back from a record they read: dropped on create. */
const ECHOED = ['size', 'project_relation', 'instrument'];
/**
 * Sent on create by the 3.1 client's parsers (`crucible upload`, `dataset create`: the working
 * directory) although datasets have no such field (spec 2.1 rule 4): dropped, not stored, so
 * those commands keep working. On update it is refused like any unknown field.
 */
const DROPPED_ON_CREATE = ['source_folder'];

function parseCreate(raw: unknown): DatasetCreateInput {
  const { body, input } = parseRecordCreate(UPDATABLE, raw, {
    fields: INSTRUMENT_WIRE,
    ignore: [...ECHOED, ...DROPPED_ON_CREATE],
  });
  const out: DatasetCreateInput = input;
  for (const [wire, key] of INSTRUMENT_FIELDS) out[key] = optionalString(body, wire);
  return out;
}

/** The instrument fields may only repeat the current instrument (the service checks). */
function parsePatch(raw: unknown): DatasetPatch {
  const { body, patch } = parseRecordPatch(UPDATABLE, raw, INSTRUMENT_WIRE);
  const out: DatasetPatch = patch;
  for (const [wire, key] of INSTRUMENT_FIELDS) if (wire in body) out[key] = optionalString(body, wire);
  return out;
}

/** Facet counts as the wire names them (snake_case dimensions, `{value, label, count}` items). */
function facetsWire(f: DatasetFacets): Record<string, unknown> {
  return {
    total: f.total,
    measurement: f.measurement,
    instrument: f.instrument,
    project: f.project,
    keyword: f.keyword,
    data_type: f.dataType,
    owner: f.owner,
    public: f.public,
  };
}

export function datasetRoutes(router: Router): void {
  // a literal path: before `/datasets/:id`
  router.get(
    '/datasets/facets',
    handle(async (ctx, req) => facetsWire(await ctx.services.dataset.facets(ctx, parseFilter(req.query)))),
  );
  recordRoutes(router, {
    path: '/datasets',
    service: (ctx) => ctx.services.dataset,
    parseFilter,
    parseCreate,
    parsePatch,
    items: (ctx, page, q) => datasetItems(ctx, page.items, q, page.relations),
    detail: datasetDetail,
    written: (ctx, ds, capabilities) => toLegacyDataset(ctx, ds, { includeOwner: true, capabilities }),
  });
}
