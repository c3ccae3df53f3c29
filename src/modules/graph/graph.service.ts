import type { RequestContext } from '../../core/context';
import { notFound, validationError } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import { sql, type Sql } from '../../core/db/sql';
import type { AccessService } from '../access/access.service';
import type { ProjectService } from '../project/project.service';
import type { EdgeKind, RelationshipType } from '../link/relationship';
import { ADJACENCY, nodesAndEdges } from './graph-sql';

export type GraphDirection = 'ancestors' | 'descendants' | 'both';
export type NodeType = 'dataset' | 'sample';

export interface GraphNodeRow {
  id: string;
  type: NodeType;
  /** distance from the focal node (0 in project graphs) */
  depth: number;
  name: string | null;
  measurement: string | null;
  sample_type: string | null;
  description: string | null;
  project_mfid: string | null;
}

export interface GraphEdgeRow {
  /** the parent */
  source: string;
  /** the child */
  target: string;
  kind: EdgeKind;
  relationship_type: RelationshipType | null;
}

export interface GraphRows {
  nodes: GraphNodeRow[];
  edges: GraphEdgeRow[];
  /**
   * Whether nodes or edges were left out at the caps (`GRAPH_MAX_NODES` nodes, nearest first;
   * four times as many edges)
   */
  truncated: boolean;
}

/** Edges kept per node of the cap. */
const EDGES_PER_NODE = 4;
/**
 * Rows the walk may produce per node of the cap: a node reached along paths of several lengths
 * is a row per length, so the walk of a dense graph stops here (nearest rows first).
 */
const WALK_ROWS_PER_NODE = 8;

/** Cuts the extra edge fetched to tell whether there were more. */
function capEdges(graph: GraphRows, maxEdges: number): GraphRows {
  if (graph.edges.length <= maxEdges) return graph;
  return { ...graph, edges: graph.edges.slice(0, maxEdges), truncated: true };
}

const STEPS: Record<GraphDirection, string[]> = {
  ancestors: ['up'],
  descendants: ['down'],
  both: ['up', 'down'],
};

/**
 * Entity graphs of datasets and samples, each computed by ONE SQL statement (a recursive CTE
 * for a traversal) filtered by what the caller may read. The walk does not pass through nodes
 * the caller may not read: they and their edges are left out, and so is whatever is reachable
 * only through them, so the graph never reveals that hidden lineage exists.
 */
export class GraphService {
  constructor(
    private readonly access: AccessService,
    private readonly projects: ProjectService,
  ) {}

  /**
   * The graph around a dataset or sample: `depth` steps (null: as far as the configured
   * maximum, `GRAPH_MAX_DEPTH`) towards ancestors, descendants or both (the connected
   * component). 404 when the caller may not read the focal node.
   */
  async entityGraph(
    ctx: RequestContext,
    id: string,
    opts: { depth?: number | null; direction?: GraphDirection } = {},
  ): Promise<GraphRows> {
    const max = ctx.config.limits.graphMaxDepth;
    const depth = opts.depth ?? max;
    if (!Number.isInteger(depth) || depth < 0) throw validationError('depth', 'must be a whole number >= 0');
    const direction = opts.direction ?? 'both';
    if (!(direction in STEPS)) throw validationError('direction', 'must be ancestors, descendants or both');
    const [d, s] = await this.readable(ctx);
    const maxNodes = ctx.config.limits.graphMaxNodes;
    const walkRows = maxNodes * WALK_ROWS_PER_NODE;
    // the walk is evaluated lazily: `steps` stops it after walkRows rows, breadth first
    const rows = await rawQuery<GraphRows>(
      ctx.em,
      `with recursive walk(id, type, depth) as (
         select * from (
           select d.unique_id::text, 'dataset'::text, 0 from dataset d where d.unique_id = ? and (${d.sql})
           union all
           select s.unique_id::text, 'sample'::text, 0 from sample s where s.unique_id = ? and (${s.sql})
         ) focus
         union
         select a.to_id, a.to_type, w.depth + 1
         from walk w
         join (${ADJACENCY}) a on a.from_id = w.id and a.from_type = w.type
         left join dataset d on a.to_type = 'dataset' and d.unique_id = a.to_id
         left join sample s on a.to_type = 'sample' and s.unique_id = a.to_id
         where w.depth < ? and a.dir in (?)
           and ((d.unique_id is not null and (${d.sql})) or (s.unique_id is not null and (${s.sql})))
       ),
       steps as (select * from walk limit ?),
       found as (select id, type, min(depth) as depth from steps group by id, type),
       nodes as (select * from found order by depth, type, id limit ?)
       ${nodesAndEdges('(select count(*) from steps) >= ? or (select count(*) from found) > ?')}`,
      [
        id,
        ...d.params,
        id,
        ...s.params,
        Math.min(depth, max),
        STEPS[direction],
        ...d.params,
        ...s.params,
        walkRows,
        maxNodes,
        maxNodes * EDGES_PER_NODE,
        walkRows,
        maxNodes,
      ],
    );
    const graph = rows[0];
    if (graph.nodes.length === 0) throw notFound('Dataset or sample', id);
    return capEdges(graph, maxNodes * EDGES_PER_NODE);
  }

  /**
   * Every dataset and sample of a project the caller may read, and the edges between them; at
   * most `GRAPH_MAX_NODES` nodes (datasets first, by MFID), then `truncated`.
   */
  async projectGraph(ctx: RequestContext, projectIdOrSlug: string): Promise<GraphRows> {
    const project = await this.projects.get(ctx, projectIdOrSlug);
    const [d, s] = await this.readable(ctx);
    const maxNodes = ctx.config.limits.graphMaxNodes;
    const rows = await rawQuery<GraphRows>(
      ctx.em,
      `with found as (
         (select d.unique_id::text as id, 'dataset'::text as type, 0 as depth from dataset d
           where d.project_mfid = ? and (${d.sql}) order by d.unique_id limit ?)
         union all
         (select s.unique_id::text, 'sample'::text, 0 from sample s where s.project_mfid = ? and (${s.sql})
           order by s.unique_id limit ?)
       ),
       nodes as (select * from found order by type, id limit ?)
       ${nodesAndEdges('(select count(*) from found) > ?')}`,
      [
        project.uniqueId,
        ...d.params,
        maxNodes + 1,
        project.uniqueId,
        ...s.params,
        maxNodes + 1,
        maxNodes,
        maxNodes * EDGES_PER_NODE,
        maxNodes,
      ],
    );
    return capEdges(rows[0], maxNodes * EDGES_PER_NODE);
  }

  private async readable(ctx: RequestContext): Promise<[Sql, Sql]> {
    const [d, s] = await Promise.all([
      this.access.readableCondition(ctx, 'd'),
      this.access.readableCondition(ctx, 's'),
    ]);
    return [d ?? sql('true'), s ?? sql('true')];
  }
}
