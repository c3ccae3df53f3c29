import { recordRoutes } from '../../core/rest/record-routes';
import { defineRoute, type Route } from '../../core/rest/route';
import { ANCHOR_QUERY, NullableString, sortQuery, Type } from '../../core/rest/schema';
import { anchorOf, sortOf } from '../../core/rest/params';
import type { DatasetOrderField } from './dataset-order';
import { INCLUDE_QUERY } from '../../core/rest/include';
import {
  DATASET_FACET_FIELDS,
  FACET_SAMPLE,
  type DatasetFacetField,
  type DatasetFacets,
  type FacetValue,
} from './dataset-facets';
import {
  FIELD_FACETS,
  fieldFacetQuery,
  fieldFacetRequest,
  fieldFacetsWire,
} from '../owned-record/field-facets.legacy';
import { UPDATABLE } from './dataset.fields';
import type { DatasetCreateInput, DatasetPatch } from './dataset.service';
import {
  detailOptions,
  itemOptions,
  recordCreateBody,
  recordCreateInput,
  recordPatchBody,
  recordPatchInput,
} from '../owned-record/owned-record.legacy';
import {
  DATASET,
  DATASET_QUERY,
  datasetDetail,
  datasetItems,
  datasetListJson,
  datasetWritten,
  legacyInclude,
  parseFilter,
} from './dataset.legacy';

/** The sort keys of `GET /datasets` (the 3.2 client's), on the read model's orders. */
const DATASET_SORTS = ['created', 'updated', 'name'] as const;
type DatasetSort = (typeof DATASET_SORTS)[number];
const DATASET_SORT_FIELDS: Record<DatasetSort, DatasetOrderField> = {
  created: 'creationTime',
  updated: 'modificationTime',
  name: 'datasetName',
};

const INSTRUMENT_FIELDS = [
  ['instrument_name', 'instrumentName'],
  ['instrument_id', 'instrumentId'],
  ['instrument_mfid', 'instrumentMfid'],
] as const;
const INSTRUMENT_PROPERTIES = Object.fromEntries(
  INSTRUMENT_FIELDS.map(([wire]) => [
    wire,
    Type.Optional(NullableString({ description: 'names the instrument' })),
  ]),
);
/** Read-only fields of a dataset that clients echo back from a record they read: dropped on create. */
const ECHOED = ['size', 'project_relation', 'instrument'];
/**
 * Sent on create by the 3.1 client's parsers (`crucible upload`, `dataset create`: the working
 * directory) although datasets have no such field (spec 2.1 rule 4): dropped, not stored, so
 * those commands keep working. On update it is refused like any unknown field.
 */
const DROPPED_ON_CREATE = ['source_folder'];

function parseCreate(body: Record<string, unknown>): DatasetCreateInput {
  const out: DatasetCreateInput = recordCreateInput(UPDATABLE, body);
  for (const [wire, key] of INSTRUMENT_FIELDS) out[key] = body[wire] as string | null | undefined;
  return out;
}

/** The instrument fields may only repeat the current instrument (the service checks). */
function parsePatch(body: Record<string, unknown>): DatasetPatch {
  const out: DatasetPatch = recordPatchInput(UPDATABLE, body);
  for (const [wire, key] of INSTRUMENT_FIELDS) if (wire in body) out[key] = body[wire] as string | null;
  return out;
}

/** Facet counts as the wire names them (snake_case dimensions, `{value, label, count}` items). */
function facetsWire(f: DatasetFacets): Record<string, FacetValue[] | number | boolean> {
  return {
    total: f.total,
    total_exact: f.totalIsExact,
    capped: f.capped,
    measurement: f.measurement,
    instrument: f.instrument,
    project: f.project,
    keyword: f.keyword,
    data_type: f.dataType,
    owner: f.owner,
    public: f.public,
  };
}

const FACET_VALUE = Type.Object(
  {
    value: Type.String({ description: 'what the filter takes: the text, the MFID or true/false' }),
    label: NullableString({ description: 'for display: instrument name, project title, owner username' }),
    count: Type.Integer({ minimum: 0 }),
  },
  { title: 'FacetValue' },
);
const FACET_LIST = Type.Array(FACET_VALUE);

/** The facet counts of the datasets a list query matches. */
const DATASET_FACETS = Type.Object(
  {
    total: Type.Integer({ minimum: 0, description: 'the number of datasets matched (the list total)' }),
    total_exact: Type.Boolean({
      description:
        'false when a full-text or metadata search matches more than TOTAL_COUNT_LIMIT datasets: `total` is that limit (as the list)',
    }),
    capped: Type.Boolean({
      description: `true when more than ${FACET_SAMPLE} datasets match: the keyword counts (and every count, for a filter on keyword, text, metadata, names, sessions, samples, relatives or access selectors) are over the newest ${FACET_SAMPLE} of them; false when every count is exact`,
    }),
    measurement: FACET_LIST,
    instrument: FACET_LIST,
    project: FACET_LIST,
    keyword: FACET_LIST,
    data_type: FACET_LIST,
    owner: FACET_LIST,
    public: FACET_LIST,
  },
  { title: 'DatasetFacets' },
);

export const datasetRoutes: Route[] = [
  // a literal path: before `/datasets/:id`
  defineRoute(
    {
      method: 'get',
      path: '/datasets/facets',
      tag: 'datasets',
      summary: 'Facet counts of the datasets the list filters match',
      description:
        "With `field`: one page of that field's buckets `{field, items, limit, next_cursor}` (exact counts, ordered by `sort` and `direction`, paged by `cursor`). Without it: per dimension the most frequent values (at most 20, ties by value). Both count the datasets the caller can read that match the same filters as `GET /datasets`.",
      query: { ...DATASET_QUERY, ...fieldFacetQuery(Object.keys(DATASET_FACET_FIELDS), false) },
      response: Type.Union([DATASET_FACETS, FIELD_FACETS]),
    },
    async (ctx, { query }) => {
      const filter = parseFilter(query);
      const req = fieldFacetRequest(query as { field?: DatasetFacetField }, false);
      if (!req) return facetsWire(await ctx.services.dataset.facets(ctx, filter));
      const page = await ctx.services.dataset.facetField(ctx, filter, req);
      return fieldFacetsWire(ctx, DATASET_FACET_FIELDS[req.field], page, req.limit);
    },
  ),
  ...recordRoutes({
    path: '/datasets',
    noun: 'dataset',
    tag: 'datasets',
    record: DATASET,
    listQuery: DATASET_QUERY,
    detailQuery: INCLUDE_QUERY,
    createBody: recordCreateBody(UPDATABLE, {
      fields: INSTRUMENT_PROPERTIES,
      ignore: [...ECHOED, ...DROPPED_ON_CREATE],
      title: 'DatasetCreate',
    }),
    patchBody: recordPatchBody(UPDATABLE, { fields: INSTRUMENT_PROPERTIES, title: 'DatasetPatch' }),
    service: (ctx) => ctx.services.dataset,
    parseFilter,
    parseCreate,
    parsePatch,
    include: {
      list: (q) => legacyInclude(itemOptions(q)),
      detail: (q) => legacyInclude(detailOptions(q)),
      written: legacyInclude({ includeOwner: true }),
    },
    sortQuery: { ...sortQuery(DATASET_SORTS, 'newest first'), ...ANCHOR_QUERY },
    sortedList: (ctx, filter, request, q) => {
      const sort = sortOf(q as { sort?: DatasetSort; direction?: 'asc' | 'desc' });
      const anchor = anchorOf(q as { anchor_mfid?: string; cursor?: string }, sort !== null);
      if (!sort) return null;
      const page = { ...request, anchor };
      const order = { field: DATASET_SORT_FIELDS[sort.sort], direction: sort.direction };
      return ctx.services.dataset.list(ctx, filter, page, legacyInclude(itemOptions(q)), order);
    },
    items: datasetItems,
    listJson: datasetListJson,
    detail: datasetDetail,
    written: datasetWritten,
  }),
];
