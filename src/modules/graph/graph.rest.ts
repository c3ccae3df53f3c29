import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { qBool } from '../../core/rest/params';
import { toNodeLink } from './graph.legacy';

export function graphRoutes(router: Router): void {
  // without recursive: the direct neighbours; with recursive=True: the connected component
  router.get(
    '/entity_graph_cte/:id',
    handle(async (ctx, req) => {
      const recursive = qBool(req.query, 'recursive', false);
      const graph = await ctx.services.graph.entityGraph(ctx, param(req, 'id'), {
        depth: recursive ? null : 1,
        direction: 'both',
      });
      return toNodeLink(graph);
    }),
  );
  router.get(
    '/project_graph/:pid',
    handle(async (ctx, req) => toNodeLink(await ctx.services.graph.projectGraph(ctx, param(req, 'pid')))),
  );
}
