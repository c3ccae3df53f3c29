import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { qBool } from '../../core/rest/params';
import type { GraphRows } from './graph.service';

/**
 * The legacy node-link shape (networkx `node_link_data`): directed, edges from parent to child,
 * under both `edges` (networkx >= 3.6) and `links` (older releases).
 */
export function toNodeLink(graph: GraphRows): Record<string, unknown> {
  const edges = graph.edges.map((e) => ({
    source: e.source,
    target: e.target,
    kind: e.kind,
    relationship_type: e.relationship_type,
  }));
  return {
    directed: true,
    multigraph: false,
    graph: {},
    nodes: graph.nodes.map((n) => ({
      id: n.id,
      unique_id: n.id,
      name: n.name,
      entity_type: n.type,
      measurement: n.measurement,
      sample_type: n.sample_type,
      description: n.description,
      project_mfid: n.project_mfid,
      depth: n.depth,
    })),
    edges,
    links: edges,
  };
}

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
