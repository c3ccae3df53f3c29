import type { RequestContext } from '../../core/context';
import { defineRoute, type Route } from '../../core/rest/route';
import {
  MESSAGE,
  NullableString,
  OFFSET_PAGE,
  offsetPage,
  QStr,
  RequiredString,
  Type,
} from '../../core/rest/schema';
import { pageOf } from '../../core/rest/params';
import {
  DATASET,
  DATASET_QUERY,
  datasetItems,
  parseFilter,
  type DatasetQuery,
} from '../dataset/dataset.legacy';
import {
  parseSampleFilter,
  SAMPLE,
  SAMPLE_QUERY,
  sampleItems,
  type SampleQuery,
} from '../sample/sample.legacy';
import { LINK, LINK_INFO, toLegacyLink, toLegacyLinkInfo } from './link.legacy';
import type { ExpectedTypes, LinkInfo } from './link.service';

const tag = 'links';
const UNLINKED = Type.Intersect([MESSAGE, LINK_INFO]);

const unlinked = (info: LinkInfo) => ({
  detail: `Unlinked ${info.parentId} and ${info.childId}`,
  ...toLegacyLinkInfo(info),
});

type Limits = RequestContext['config']['limits'];

const RELATIONSHIP_FILTER = QStr('only links of this relationship type (children and parents)');

/** An offset page `{items, total}` of the datasets related to the record `id`. */
async function relatedDatasets(
  ctx: RequestContext,
  id: string,
  query: DatasetQuery & { limit?: number; offset?: number },
  relation: 'children' | 'parents' | 'ofSample',
  relationshipType?: string,
  limits: Limits = ctx.config.limits,
) {
  const page = await ctx.services.link.datasetRelatives(
    ctx,
    id,
    relation,
    { ...parseFilter(query), relationshipType },
    pageOf(query, limits),
  );
  return { items: await datasetItems(ctx, page.items, query), total: page.total };
}

/** An offset page `{items, total}` of the samples related to the record `id`. */
async function relatedSamples(
  ctx: RequestContext,
  id: string,
  query: SampleQuery & { limit?: number; offset?: number },
  relation: 'children' | 'parents' | 'ofDataset',
  relationshipType?: string,
) {
  const page = await ctx.services.link.sampleRelatives(
    ctx,
    id,
    relation,
    { ...parseSampleFilter(query), relationshipType },
    pageOf(query, ctx.config.limits),
  );
  return { items: await sampleItems(ctx, page.items, query), total: page.total };
}

/** Typed legacy link routes: `/<kind>/:a/<relation>/:b` link and unlink, in path order. */
function typedLinkRoutes(path: `/${string}/:a/${string}/:b`, types: ExpectedTypes): Route[] {
  const params = { a: `the ${types[0]} MFID`, b: `the ${types[1]} MFID` };
  return [
    defineRoute(
      {
        method: 'post',
        path,
        tag,
        summary: `Link a ${types[0]} and a ${types[1]}`,
        params,
        query: { relationship_type: QStr('a free-text kind of relation') },
        status: 201,
        response: LINK_INFO,
      },
      async (ctx, { params: p, query }) => {
        const { a, b } = p as { a: string; b: string };
        return toLegacyLinkInfo(await ctx.services.link.link(ctx, a, b, query.relationship_type, types));
      },
    ),
    defineRoute(
      {
        method: 'delete',
        path,
        tag,
        summary: `Unlink a ${types[0]} and a ${types[1]}`,
        params,
        response: UNLINKED,
      },
      async (ctx, { params: p }) => {
        const { a, b } = p as { a: string; b: string };
        return unlinked(await ctx.services.link.unlink(ctx, a, b, { types, directed: true }));
      },
    ),
  ];
}

const id = { id: 'the record MFID' };

export const linkRoutes: Route[] = [
  defineRoute(
    {
      method: 'post',
      path: '/resources/links',
      tag,
      summary: 'Link two records (parent and child)',
      body: Type.Object(
        {
          parent_mfid: RequiredString(),
          child_mfid: RequiredString(),
          relationship_type: Type.Optional(NullableString()),
        },
        { additionalProperties: false, title: 'LinkCreate' },
      ),
      status: 201,
      response: LINK_INFO,
    },
    async (ctx, { body }) => {
      const b = body as { parent_mfid: string; child_mfid: string; relationship_type?: string | null };
      return toLegacyLinkInfo(
        await ctx.services.link.link(ctx, b.parent_mfid, b.child_mfid, b.relationship_type),
      );
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/resources/:id/links',
      tag,
      summary: "A record's links",
      description:
        'A plain list (legacy): the first MAX_PAGE_SIZE links unless `limit` / `offset` ask for another page.',
      params: id,
      query: OFFSET_PAGE,
      response: Type.Array(LINK),
    },
    async (ctx, { params, query }) => {
      const { maxPageSize } = ctx.config.limits;
      const page = pageOf(query, { defaultPageSize: maxPageSize, maxPageSize });
      return (await ctx.services.link.linksOf(ctx, params.id, page)).map(toLegacyLink);
    },
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/resources/:a/links/:b',
      tag,
      summary: 'Unlink two records (either direction)',
      params: { a: 'a record MFID', b: 'the other record MFID' },
      response: UNLINKED,
    },
    async (ctx, { params }) => unlinked(await ctx.services.link.unlink(ctx, params.a, params.b)),
  ),
  ...typedLinkRoutes('/datasets/:a/children/:b', ['dataset', 'dataset']),
  ...typedLinkRoutes('/samples/:a/children/:b', ['sample', 'sample']),
  ...typedLinkRoutes('/datasets/:a/samples/:b', ['dataset', 'sample']),
  ...(['children', 'parents'] as const).flatMap((relation) => [
    defineRoute(
      {
        method: 'get',
        path: `/datasets/:id/${relation}`,
        tag,
        summary: `A dataset's ${relation}`,
        params: id,
        query: { ...DATASET_QUERY, relationship_type: RELATIONSHIP_FILTER, ...OFFSET_PAGE },
        response: offsetPage(DATASET),
      },
      (ctx, { params, query }) =>
        relatedDatasets(ctx, (params as { id: string }).id, query, relation, query.relationship_type),
    ),
    defineRoute(
      {
        method: 'get',
        path: `/samples/:id/${relation}`,
        tag,
        summary: `A sample's ${relation}`,
        params: id,
        query: { ...SAMPLE_QUERY, relationship_type: RELATIONSHIP_FILTER, ...OFFSET_PAGE },
        response: offsetPage(SAMPLE),
      },
      (ctx, { params, query }) =>
        relatedSamples(ctx, (params as { id: string }).id, query, relation, query.relationship_type),
    ),
  ]),
  defineRoute(
    {
      method: 'get',
      path: '/datasets/:id/samples',
      tag,
      summary: 'The samples of a dataset',
      params: id,
      query: { ...SAMPLE_QUERY, ...OFFSET_PAGE },
      response: offsetPage(SAMPLE),
    },
    (ctx, { params, query }) => relatedSamples(ctx, params.id, query, 'ofDataset'),
  ),
  // a plain list (not an envelope): the legacy client parses an array here and cannot page
  // it, so without `limit` it holds as many as a page may (MAX_PAGE_SIZE), not the default
  defineRoute(
    {
      method: 'get',
      path: '/samples/:id/datasets',
      tag,
      summary: 'The datasets of a sample (a plain list; MAX_PAGE_SIZE without limit)',
      params: id,
      query: { ...DATASET_QUERY, ...OFFSET_PAGE },
      response: Type.Array(DATASET),
    },
    async (ctx, { params, query }) => {
      const limits = ctx.config.limits;
      const page = await relatedDatasets(ctx, params.id, query, 'ofSample', undefined, {
        ...limits,
        defaultPageSize: limits.maxPageSize,
      });
      return page.items;
    },
  ),
];
