import { recordRoutes } from '../../core/rest/record-routes';
import { defineRoute, type Route } from '../../core/rest/route';
import {
  FIELD_FACETS,
  fieldFacetQuery,
  fieldFacetRequest,
  fieldFacetsWire,
} from '../owned-record/field-facets.legacy';
import { SAMPLE_FACET_FIELDS, type SampleFacetField } from './sample.service';
import {
  detailOptions,
  itemOptions,
  recordCreateBody,
  recordCreateInput,
  recordPatchBody,
  recordPatchInput,
} from '../owned-record/owned-record.legacy';
import { INCLUDE_QUERY } from '../../core/rest/include';
import { SAMPLE_TEXT } from './sample.fields';
import {
  parseSampleFilter,
  SAMPLE,
  SAMPLE_QUERY,
  legacyInclude,
  sampleDetail,
  sampleItems,
  sampleListJson,
  sampleWritten,
} from './sample.legacy';
import { ANCHOR_QUERY, QBool, sortQuery } from '../../core/rest/schema';
import { anchorOf, sortOf } from '../../core/rest/params';
import type { SampleOrderField } from './sample.query';

/** The sort keys of `GET /samples`: the 3.2 client's (those of `GET /datasets`), on the read model's orders. */
const SAMPLE_SORTS = ['created', 'updated', 'name'] as const;
type SampleSort = (typeof SAMPLE_SORTS)[number];
const SAMPLE_SORT_FIELDS: Record<SampleSort, SampleOrderField> = {
  created: 'creationTime',
  updated: 'modificationTime',
  name: 'sampleName',
};

/** The list filters of `GET /samples` without its include flags: what `GET /samples/facets` takes besides the page. */
const SAMPLE_FACET_FILTERS = Object.fromEntries(
  Object.entries(SAMPLE_QUERY).filter(([k]) => !k.startsWith('include_')),
) as Omit<typeof SAMPLE_QUERY, 'include_datasets' | `include_${string}`>;

const sampleFacets = defineRoute(
  {
    method: 'get',
    path: '/samples/facets',
    tag: 'samples',
    summary: 'Facet counts of one field over the samples the list filters match',
    description:
      'One page of the buckets of `field` `{field, items, limit, next_cursor}`: exact counts over the samples the caller can read that match the same filters as `GET /samples`, ordered by `sort` and `direction`, paged by `cursor`.',
    query: { ...SAMPLE_FACET_FILTERS, ...fieldFacetQuery(Object.keys(SAMPLE_FACET_FIELDS), true) },
    response: FIELD_FACETS,
  },
  async (ctx, { query }) => {
    const req = fieldFacetRequest(query as { field?: SampleFacetField }, true);
    const page = await ctx.services.sample.facetField(ctx, parseSampleFilter(query), req);
    return fieldFacetsWire(ctx, SAMPLE_FACET_FIELDS[req.field], page, req.limit);
  },
);

export const sampleRoutes: Route[] = [
  // a literal path: before `/samples/:id`
  sampleFacets,
  ...recordRoutes({
    path: '/samples',
    noun: 'sample',
    tag: 'samples',
    record: SAMPLE,
    listQuery: SAMPLE_QUERY,
    detailQuery: { ...INCLUDE_QUERY, include_datasets: QBool('add the deprecated `datasets` list', true) },
    // read-only fields of a sample that clients echo back from a record they read
    createBody: recordCreateBody(SAMPLE_TEXT, { ignore: ['datasets'], title: 'SampleCreate' }),
    patchBody: recordPatchBody(SAMPLE_TEXT, { title: 'SamplePatch' }),
    service: (ctx) => ctx.services.sample,
    parseFilter: parseSampleFilter,
    parseCreate: (body) => recordCreateInput(SAMPLE_TEXT, body),
    parsePatch: (body) => recordPatchInput(SAMPLE_TEXT, body),
    include: {
      list: (q) => legacyInclude(itemOptions(q)),
      detail: (q) => legacyInclude(detailOptions(q)),
      written: legacyInclude({ includeOwner: true }),
    },
    sortQuery: { ...sortQuery(SAMPLE_SORTS, 'newest first'), ...ANCHOR_QUERY },
    sortedList: (ctx, filter, request, q) => {
      const sort = sortOf(q as { sort?: SampleSort; direction?: 'asc' | 'desc' });
      const anchor = anchorOf(q as { anchor_mfid?: string; cursor?: string }, sort !== null);
      if (!sort) return null;
      const page = { ...request, anchor };
      const order = { field: SAMPLE_SORT_FIELDS[sort.sort], direction: sort.direction };
      return ctx.services.sample.list(ctx, filter, page, legacyInclude(itemOptions(q)), order);
    },
    items: sampleItems,
    listJson: sampleListJson,
    detail: sampleDetail,
    written: sampleWritten,
  }),
];
