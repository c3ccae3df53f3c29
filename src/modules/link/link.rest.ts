import type { Request, Router } from 'express';
import type { RequestContext } from '../../core/context';
import { handle, param } from '../../core/rest/handler';
import { bodyObject, qOffsetPage, qStr } from '../../core/rest/params';
import { optionalString, pickFields, requiredString } from '../../core/rest/body';
import { datasetItems, parseFilter } from '../dataset/dataset.legacy';
import { parseSampleFilter, sampleItems } from '../sample/sample.legacy';
import { toLegacyLink, toLegacyLinkInfo } from './link.legacy';
import type { ExpectedTypes, LinkInfo } from './link.service';

const unlinked = (info: LinkInfo) => ({
  detail: `Unlinked ${info.parentId} and ${info.childId}`,
  ...toLegacyLinkInfo(info),
});

/** An offset page `{items, total}` of the datasets related to the record `:id`. */
async function relatedDatasets(
  ctx: RequestContext,
  req: Request,
  relation: 'children' | 'parents' | 'ofSample',
  limits = ctx.config.limits,
) {
  const filter = parseFilter(req.query);
  const page = await ctx.services.link.datasetRelatives(
    ctx,
    param(req, 'id'),
    relation,
    filter,
    qOffsetPage(req.query, limits),
  );
  return { items: await datasetItems(ctx, page.items, req.query), total: page.total };
}

/** An offset page `{items, total}` of the samples related to the record `:id`. */
async function relatedSamples(
  ctx: RequestContext,
  req: Request,
  relation: 'children' | 'parents' | 'ofDataset',
) {
  const filter = parseSampleFilter(req.query);
  const page = await ctx.services.link.sampleRelatives(
    ctx,
    param(req, 'id'),
    relation,
    filter,
    qOffsetPage(req.query, ctx.config.limits),
  );
  return { items: await sampleItems(ctx, page.items, req.query), total: page.total };
}

/** Typed legacy link routes: `/<kind>/:a/<relation>/:b` link and unlink, in path order. */
function typedLinkRoutes(router: Router, path: string, types: ExpectedTypes): void {
  router.post(
    path,
    handle(async (ctx, req) => {
      const info = await ctx.services.link.link(
        ctx,
        param(req, 'a'),
        param(req, 'b'),
        qStr(req.query, 'relationship_type'),
        types,
      );
      return toLegacyLinkInfo(info);
    }, 201),
  );
  router.delete(
    path,
    handle(async (ctx, req) =>
      unlinked(
        await ctx.services.link.unlink(ctx, param(req, 'a'), param(req, 'b'), { types, directed: true }),
      ),
    ),
  );
}

export function linkRoutes(router: Router): void {
  router.post(
    '/resources/links',
    handle(async (ctx, req) => {
      const body = pickFields(bodyObject(req.body), ['parent_mfid', 'child_mfid', 'relationship_type']);
      const info = await ctx.services.link.link(
        ctx,
        requiredString(body, 'parent_mfid'),
        requiredString(body, 'child_mfid'),
        optionalString(body, 'relationship_type'),
      );
      return toLegacyLinkInfo(info);
    }, 201),
  );
  // a plain list (legacy): the first MAX_PAGE_SIZE links unless `limit` / `offset` ask for a page
  router.get(
    '/resources/:id/links',
    handle(async (ctx, req) => {
      const { maxPageSize } = ctx.config.limits;
      const page = qOffsetPage(req.query, { defaultPageSize: maxPageSize, maxPageSize });
      return (await ctx.services.link.linksOf(ctx, param(req, 'id'), page)).map(toLegacyLink);
    }),
  );
  router.delete(
    '/resources/:a/links/:b',
    handle(async (ctx, req) =>
      unlinked(await ctx.services.link.unlink(ctx, param(req, 'a'), param(req, 'b'))),
    ),
  );

  typedLinkRoutes(router, '/datasets/:a/children/:b', ['dataset', 'dataset']);
  typedLinkRoutes(router, '/samples/:a/children/:b', ['sample', 'sample']);
  typedLinkRoutes(router, '/datasets/:a/samples/:b', ['dataset', 'sample']);

  for (const relation of ['children', 'parents'] as const) {
    router.get(
      `/datasets/:id/${relation}`,
      handle((ctx, req) => relatedDatasets(ctx, req, relation)),
    );
    router.get(
      `/samples/:id/${relation}`,
      handle((ctx, req) => relatedSamples(ctx, req, relation)),
    );
  }
  router.get(
    '/datasets/:id/samples',
    handle((ctx, req) => relatedSamples(ctx, req, 'ofDataset')),
  );
  // a plain list (not an envelope): the legacy client parses an array here and cannot page
  // it, so without `limit` it holds as many as a page may (MAX_PAGE_SIZE), not the default
  router.get(
    '/samples/:id/datasets',
    handle(async (ctx, req) => {
      const limits = ctx.config.limits;
      return (await relatedDatasets(ctx, req, 'ofSample', { ...limits, defaultPageSize: limits.maxPageSize }))
        .items;
    }),
  );
}
