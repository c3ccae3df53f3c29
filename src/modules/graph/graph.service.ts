import type { RequestContext } from '../../core/context';
import { notFound, validationError } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import { sql, type Sql } from '../../core/db/sql';
import type { AccessService } from '../permission/access.service';
import type { ProjectService } from '../project/project.service';
import type { EdgeKind, RelationshipType } from '../link/relationship';
import { ADJACENCY, decodeGraphCursor, encodeGraphCursor, nodesAndEdges, type NodeKey } from './graph-sql';

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
   * Whether anything was left out of this response: nodes on later pages, nodes beyond the
   * walk's bound, or edges beyond the edge cap
   */
  truncated: boolean;
  /** the cursor of the next page of nodes (`after`), or null on the last page */
  nextCursor: string | null;
}

/** A page of a graph: `first` nodes (at most `GRAPH_MAX_NODES`) after the cursor `after`. */
export interface GraphPage {
  first?: number | null;
  after?: string | null;
}

/** Edges kept per node of the cap. */
const EDGES_PER_NODE = 4;
/**
 * Rows the walk may produce per node of the cap: a node reached along paths of several lengths
 * is a row per length, so the walk of a dense graph stops here (nearest rows first).
 */
const WALK_ROWS_PER_NODE = 8;

/** One row of the graph statement (`nodesAndEdges`). */
interface GraphStatementRow {
  nodes: GraphNodeRow[];
  edges: GraphEdgeRow[];
  more: boolean;
  walk_cut: boolean;
  found: boolean;
}

/** The page with the next page's cursor (after its last node, when more follow). */
function withCursor(row: GraphStatementRow): GraphRows {
  const last = row.nodes.at(-1);
  const next = row.more && last !== undefined ? encodeGraphCursor(last) : null;
  return { nodes: row.nodes, edges: row.edges, truncated: row.more || row.walk_cut, nextCursor: next };
}

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
   * component), nearest first, a page of nodes at a time. 404 when the caller may not read the
   * focal node.
   */
  async entityGraph(
    ctx: RequestContext,
    id: string,
    opts: { depth?: number | null; direction?: GraphDirection } & GraphPage = {},
  ): Promise<GraphRows> {
    const max = ctx.config.limits.graphMaxDepth;
    const depth = opts.depth ?? max;
    if (!Number.isInteger(depth) || depth < 0) throw validationError('depth', 'must be a whole number >= 0');
    const direction = opts.direction ?? 'both';
    if (!(direction in STEPS)) throw validationError('direction', 'must be ancestors, descendants or both');
    const { first, after } = this.page(ctx, opts);
    const [d, s] = await this.readable(ctx);
    const walkRows = ctx.config.limits.graphMaxNodes * WALK_ROWS_PER_NODE;
    const from = after ?? { depth: -1, type: 'dataset', id: '' };
    // the walk is evaluated lazily: `steps` stops it after walkRows rows, breadth first; every
    // page walks the same graph and takes its nodes after the cursor in (depth, type, id) order.
    // A step never goes straight back to the node it came from (that node is already found,
    // nearer): a dataset with 10 000 children is 10 001 rows, not a walk bouncing between them.
    const rows = await rawQuery<GraphStatementRow>(
      ctx.em,
      `with recursive walk(id, type, depth, prev_id, prev_type) as (
         select *, null::text, null::text from (
           select d.unique_id::text, 'dataset'::text, 0 from dataset d where d.unique_id = ? and (${d.sql})
           union all
           select s.unique_id::text, 'sample'::text, 0 from sample s where s.unique_id = ? and (${s.sql})
         ) focus
         union
         select a.to_id, a.to_type, w.depth + 1, w.id, w.type
         from walk w
         join (${ADJACENCY}) a on a.from_id = w.id and a.from_type = w.type
         left join dataset d on a.to_type = 'dataset' and d.unique_id = a.to_id
         left join sample s on a.to_type = 'sample' and s.unique_id = a.to_id
         where w.depth < ? and a.dir in (?)
           and (a.to_id, a.to_type) is distinct from (w.prev_id, w.prev_type)
           and ((d.unique_id is not null and (${d.sql})) or (s.unique_id is not null and (${s.sql})))
       ),
       steps as (select * from walk limit ?),
       found as (select id, type, min(depth) as depth from steps group by id, type),
       page as (select * from found where (depth, type, id) > (?, ?, ?) order by depth, type, id limit ?),
       nodes as (select * from page order by depth, type, id limit ?),
       upto as (select f.* from found f
         where (f.depth, f.type, f.id) <= (select depth, type, id from nodes order by depth desc, type desc, id desc limit 1))
       ${nodesAndEdges('(select count(*) from page) > ?', '(select count(*) from steps) >= ?', 'exists (select 1 from found)')}`,
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
        from.depth,
        from.type,
        from.id,
        first + 1,
        first,
        first * EDGES_PER_NODE,
        first,
        walkRows,
      ],
    );
    if (!rows[0].found) throw notFound('Dataset or sample', id);
    return capEdges(withCursor(rows[0]), first * EDGES_PER_NODE);
  }

  /**
   * Every dataset and sample of a project the caller may read, and the edges between them,
   * datasets first, by MFID, a page of nodes at a time.
   */
  async projectGraph(ctx: RequestContext, projectIdOrSlug: string, opts: GraphPage = {}): Promise<GraphRows> {
    const { first, after } = this.page(ctx, opts);
    const project = await this.projects.get(ctx, projectIdOrSlug);
    const [d, s] = await this.readable(ctx);
    // each branch is an index range of its own table: the datasets after the cursor (none when
    // it is a sample), the samples after it (all when it is a dataset)
    const dAfter = after === undefined ? 'true' : after.type === 'dataset' ? 'd.unique_id > ?' : 'false';
    const sAfter = after?.type === 'sample' ? 's.unique_id > ?' : 'true';
    const dAfterParams = after?.type === 'dataset' ? [after.id] : [];
    const sAfterParams = after?.type === 'sample' ? [after.id] : [];
    const rows = await rawQuery<GraphStatementRow>(
      ctx.em,
      `with readable as (
         select d.unique_id::text as id, 'dataset'::text as type, 0 as depth from dataset d
           where d.project_mfid = ? and (${d.sql})
         union all
         select s.unique_id::text, 'sample'::text, 0 from sample s where s.project_mfid = ? and (${s.sql})
       ),
       page as (
         (select d.unique_id::text as id, 'dataset'::text as type, 0 as depth from dataset d
           where d.project_mfid = ? and (${d.sql}) and ${dAfter} order by d.unique_id limit ?)
         union all
         (select s.unique_id::text, 'sample'::text, 0 from sample s
           where s.project_mfid = ? and (${s.sql}) and ${sAfter} order by s.unique_id limit ?)
       ),
       nodes as (select * from page order by type, id limit ?),
       upto as (select r.* from readable r
         where (r.type, r.id) <= (select type, id from nodes order by type desc, id desc limit 1))
       ${nodesAndEdges('(select count(*) from page) > ?')}`,
      [
        project.uniqueId,
        ...d.params,
        project.uniqueId,
        ...s.params,
        project.uniqueId,
        ...d.params,
        ...dAfterParams,
        first + 1,
        project.uniqueId,
        ...s.params,
        ...sAfterParams,
        first + 1,
        first,
        first * EDGES_PER_NODE,
        first,
      ],
    );
    return capEdges(withCursor(rows[0]), first * EDGES_PER_NODE);
  }

  /** The page size (default and maximum `GRAPH_MAX_NODES`) and the cursor of a graph request. */
  private page(ctx: RequestContext, opts: GraphPage): { first: number; after: NodeKey | undefined } {
    const max = ctx.config.limits.graphMaxNodes;
    const first = opts.first ?? max;
    if (!Number.isInteger(first) || first < 1 || first > max)
      throw validationError('first', `must be a whole number from 1 to ${String(max)}`);
    return { first, after: decodeGraphCursor(opts.after) };
  }

  private async readable(ctx: RequestContext): Promise<[Sql, Sql]> {
    const [d, s] = await Promise.all([
      this.access.readableCondition(ctx, 'dataset', 'd'),
      this.access.readableCondition(ctx, 'sample', 's'),
    ]);
    return [d ?? sql('true'), s ?? sql('true')];
  }
}
