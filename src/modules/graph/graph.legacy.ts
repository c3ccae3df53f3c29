import { NullableString, Type } from '../../core/rest/schema';
import type { GraphRows } from './graph.service';

/**
 * The legacy node-link shape (networkx `node_link_data`): directed, edges from parent to child,
 * under both `edges` (networkx >= 3.6) and `links` (older releases). A graph cut at the caps
 * says so in the graph attributes: `"graph": {"truncated": true}` (otherwise `{}`), with
 * `"next"`: the cursor to pass as `after` for the following page of nodes, when there is one.
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
    graph: graph.truncated
      ? { truncated: true, ...(graph.nextCursor === null ? {} : { next: graph.nextCursor }) }
      : {},
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

/** The node-link graph (networkx `node_link_data`). */
export const NODE_LINK = Type.Object(
  {
    directed: Type.Boolean(),
    multigraph: Type.Boolean(),
    graph: Type.Object({}),
    nodes: Type.Array(Type.Object({ id: Type.String(), entity_type: Type.String(), name: NullableString() })),
    edges: Type.Array(Type.Object({ source: Type.String(), target: Type.String() })),
    links: Type.Array(Type.Object({ source: Type.String(), target: Type.String() })),
  },
  { title: 'NodeLinkGraph' },
);
