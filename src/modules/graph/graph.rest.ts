import type { RequestContext } from '../../core/context';
import { pageSize } from '../../core/pagination';
import { defineRoute, type Route } from '../../core/rest/route';
import { QBool, QInt, QStr } from '../../core/rest/schema';
import { NODE_LINK, toNodeLink } from './graph.legacy';

const tag = 'graph';

/** A page of nodes: `limit` (default and maximum GRAPH_MAX_NODES) after the cursor `after`. */
const GRAPH_PAGE = {
  limit: QInt('nodes per page (default and maximum GRAPH_MAX_NODES)', { minimum: 1 }),
  after: QStr('`graph.next` of the previous page'),
};

/** `limit` checked here, so that a refusal names it (the service names its `first`). */
const pageLimit = (ctx: RequestContext, limit: number | undefined) =>
  limit === undefined ? undefined : pageSize('limit', limit, ctx.config.limits.graphMaxNodes);

export const graphRoutes: Route[] = [
  // without recursive: the direct neighbours; with recursive=True: the connected component
  defineRoute(
    {
      method: 'get',
      path: '/entity_graph_cte/:id',
      tag,
      summary: "A record's graph of datasets and samples",
      params: { id: 'a dataset or sample MFID' },
      query: {
        recursive: QBool('the whole connected component instead of the direct neighbours', false),
        ...GRAPH_PAGE,
      },
      response: NODE_LINK,
    },
    async (ctx, { params, query }) =>
      toNodeLink(
        await ctx.services.graph.entityGraph(ctx, params.id, {
          depth: query.recursive ? null : 1,
          direction: 'both',
          first: pageLimit(ctx, query.limit),
          after: query.after,
        }),
      ),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/project_graph/:pid',
      tag,
      summary: "The graph of a project's datasets and samples",
      params: { pid: 'project slug or MFID' },
      query: GRAPH_PAGE,
      response: NODE_LINK,
    },
    async (ctx, { params, query }) =>
      toNodeLink(
        await ctx.services.graph.projectGraph(ctx, params.pid, {
          first: pageLimit(ctx, query.limit),
          after: query.after,
        }),
      ),
  ),
];
