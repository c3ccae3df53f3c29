import { defineRoute, type Route } from '../../core/rest/route';
import { QBool } from '../../core/rest/schema';
import { NODE_LINK, toNodeLink } from './graph.legacy';

const tag = 'graph';

export const graphRoutes: Route[] = [
  // without recursive: the direct neighbours; with recursive=True: the connected component
  defineRoute(
    {
      method: 'get',
      path: '/entity_graph_cte/:id',
      tag,
      summary: "A record's graph of datasets and samples",
      params: { id: 'a dataset or sample MFID' },
      query: { recursive: QBool('the whole connected component instead of the direct neighbours', false) },
      response: NODE_LINK,
    },
    async (ctx, { params, query }) =>
      toNodeLink(
        await ctx.services.graph.entityGraph(ctx, params.id, {
          depth: query.recursive ? null : 1,
          direction: 'both',
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
      response: NODE_LINK,
    },
    async (ctx, { params }) => toNodeLink(await ctx.services.graph.projectGraph(ctx, params.pid)),
  ),
];
