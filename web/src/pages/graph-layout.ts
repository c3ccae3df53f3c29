import { graphlib, layout } from '@dagrejs/dagre';

export interface LayoutNode {
  id: string;
  /** the drawn shape's size */
  size: number;
  /** the label's width, drawn to the right of the shape (reserved in the layout) */
  labelWidth: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface Layered {
  /** the centre of each node's shape */
  positions: Map<string, Point>;
  /** each edge's bends (not its ends), keyed `source>target`, from the source's end to the target's */
  bends: Map<string, Point[]>;
}

const LABEL_GAP = 4;
const RANK_SEP = 56;

/**
 * A layered layout (dagre: ranks top to bottom, crossings reduced) with orthogonal edge routes
 * that never cross a node: every node's box includes its label, an edge leaves its source
 * straight down (or up) from the shape's centre, turns only in the free band between two ranks,
 * and passes a rank it skips through a slot dagre reserved for it (a dummy node), so the only
 * boxes it touches are its own two ends. Each source's edges turn at their own height in the band,
 * so edges of different parents do not run on top of each other.
 */
export function layered(nodes: LayoutNode[], edges: [string, string][]): Layered {
  const g = new graphlib.Graph({ multigraph: false });
  g.setGraph({ rankdir: 'TB', nodesep: 18, edgesep: 8, ranksep: RANK_SEP, marginx: 10, marginy: 10 });
  g.setDefaultEdgeLabel(() => ({}));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const n of nodes) g.setNode(n.id, { width: n.size + LABEL_GAP + n.labelWidth, height: n.size });
  const kept: [string, string][] = [];
  for (const [s, t] of edges) {
    if (s === t || !byId.has(s) || !byId.has(t) || g.hasEdge(s, t)) continue;
    g.setEdge(s, t);
    kept.push([s, t]);
  }
  layout(g);

  const positions = new Map<string, Point>();
  const boxTop = new Map<number, number>();
  const boxBottom = new Map<number, number>();
  for (const n of nodes) {
    const d = g.node(n.id) as { x: number; y: number; width: number; height: number };
    // the shape sits at the left of its box, the label to its right
    positions.set(n.id, { x: d.x - d.width / 2 + n.size / 2, y: d.y });
    boxTop.set(d.y, Math.min(boxTop.get(d.y) ?? Infinity, d.y - d.height / 2));
    boxBottom.set(d.y, Math.max(boxBottom.get(d.y) ?? -Infinity, d.y + d.height / 2));
  }
  const rankYs = [...boxTop.keys()].sort((a, b) => a - b);
  // each source's index in its rank, for its own turning height in a band
  const lane = new Map<string, number>();
  const perRank = new Map<number, number>();
  const at = (id: string): Point => positions.get(id) ?? { x: 0, y: 0 };
  for (const n of [...nodes].sort((a, b) => at(a.id).x - at(b.id).x)) {
    const y = at(n.id).y;
    const i = perRank.get(y) ?? 0;
    lane.set(n.id, i);
    perRank.set(y, i + 1);
  }
  const LANES = 5;
  // the height at which an edge from `source` turns between ranks at y `a` and `b` (either order)
  const turnAt = (a: number, b: number, source: string): number => {
    const [upper, lower] = a < b ? [a, b] : [b, a];
    const top = boxBottom.get(upper) ?? upper;
    const bottom = boxTop.get(lower) ?? lower;
    const margin = Math.min(8, (bottom - top) / 4);
    const k = (lane.get(source) ?? 0) % LANES;
    return top + margin + ((bottom - top - 2 * margin) * k) / (LANES - 1);
  };

  const bends = new Map<string, Point[]>();
  for (const [s, t] of kept) {
    const from = at(s);
    const to = at(t);
    const points = ((g.edge(s, t) as { points?: Point[] } | undefined)?.points ?? []).slice();
    // the stations: the source, a point on every rank the edge skips (its dummy node), the target
    const [lo, hi] = from.y < to.y ? [from.y, to.y] : [to.y, from.y];
    const skipped = rankYs.filter((y) => y > lo + 0.5 && y < hi - 0.5);
    if (from.y > to.y) skipped.reverse();
    const stations: Point[] = [from];
    for (const y of skipped) {
      const p = points.find((q) => Math.abs(q.y - y) < 0.5);
      stations.push({ x: p ? p.x : from.x, y });
    }
    stations.push(to);
    const route: Point[] = [];
    for (let i = 0; i + 1 < stations.length; i++) {
      const a = stations[i];
      const b = stations[i + 1];
      if (i > 0) route.push(a);
      if (Math.abs(a.x - b.x) < 0.5) continue;
      const y = turnAt(a.y, b.y, s);
      route.push({ x: a.x, y }, { x: b.x, y });
    }
    bends.set(`${s}>${t}`, route);
  }
  return { positions, bends };
}

/**
 * A bend as cytoscape's segments edge takes it (`edge-distances: node-position`): the fraction
 * along the line from the source's centre to the target's, and the distance off that line.
 */
export function segmentOf(from: Point, to: Point, p: Point): { weight: number; distance: number } {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const len2 = dx * dx + dy * dy || 1;
  const len = Math.sqrt(len2);
  const px = p.x - from.x;
  const py = p.y - from.y;
  return { weight: (px * dx + py * dy) / len2, distance: (px * -dy + py * dx) / len };
}
