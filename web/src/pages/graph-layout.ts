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
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const seen = new Set<string>();
  const kept: [string, string][] = [];
  for (const [s, t] of edges) {
    const key = `${s}>${t}`;
    if (s === t || !byId.has(s) || !byId.has(t) || seen.has(key)) continue;
    seen.add(key);
    kept.push([s, t]);
  }
  const placed = nodes.length <= DAGRE_MAX_NODES ? placeWithDagre(nodes, kept) : placeFast(nodes, kept);
  return route(nodes, kept, placed);
}

/** Above this many nodes the layout is {@link placeFast}'s (dagre's ranking and ordering take seconds). */
export const DAGRE_MAX_NODES = 300;

const NODE_SEP = 18;
const EDGE_SEP = 8;
const MARGIN = 10;

/** Where a layout put each node's box (its centre and size) and each edge's points on the ranks it skips. */
export interface Placement {
  boxes: Map<string, { x: number; y: number; width: number; height: number }>;
  /** keyed `source>target`: a point at every rank the edge skips (more points are ignored) */
  via: Map<string, Point[]>;
}

const boxWidth = (n: LayoutNode): number => n.size + LABEL_GAP + n.labelWidth;

function placeWithDagre(nodes: LayoutNode[], kept: [string, string][]): Placement {
  const g = new graphlib.Graph({ multigraph: false });
  g.setGraph({
    rankdir: 'TB',
    nodesep: NODE_SEP,
    edgesep: EDGE_SEP,
    ranksep: RANK_SEP,
    marginx: MARGIN,
    marginy: MARGIN,
  });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) g.setNode(n.id, { width: boxWidth(n), height: n.size });
  for (const [s, t] of kept) g.setEdge(s, t);
  layout(g);
  const boxes: Placement['boxes'] = new Map();
  for (const n of nodes) {
    const d = g.node(n.id) as { x: number; y: number; width: number; height: number };
    boxes.set(n.id, { x: d.x, y: d.y, width: d.width, height: d.height });
  }
  const via: Placement['via'] = new Map();
  for (const [s, t] of kept)
    via.set(`${s}>${t}`, (g.edge(s, t) as { points?: Point[] } | undefined)?.points ?? []);
  return { boxes, via };
}

/**
 * A layered layout in linear time per pass, for big graphs: ranks by longest path from the
 * sources (a source pulled down to just above its nearest child), a slot (dummy) on every rank an
 * edge skips, the order of each rank from a depth-first walk then four barycentre sweeps, and x
 * from alternating sweeps that put each box at the mean of its neighbours' in the rank before,
 * kept apart by the separations (the mean of the leftmost and the rightmost feasible placement,
 * itself feasible). Boxes and slots of a rank never overlap, so the routes keep off other nodes.
 */
export function placeFast(nodes: LayoutNode[], kept: [string, string][]): Placement {
  const n = nodes.length;
  const index = new Map(nodes.map((v, i) => [v.id, i]));
  const out: number[][] = nodes.map(() => []);
  for (const [s, t] of kept) out[index.get(s) ?? 0].push(index.get(t) ?? 0);
  // break cycles: an edge back to a node on the walk's stack is laid out reversed
  const state = new Uint8Array(n); // 0 new, 1 on the stack, 2 done
  const down: number[][] = nodes.map(() => []);
  for (let root = 0; root < n; root++) {
    if (state[root]) continue;
    const stack: [number, number][] = [[root, 0]];
    state[root] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1];
      const [v, i] = top;
      if (i >= out[v].length) {
        state[v] = 2;
        stack.pop();
        continue;
      }
      top[1]++;
      const w = out[v][i];
      if (state[w] === 1) down[w].push(v);
      else {
        down[v].push(w);
        if (state[w] === 0) {
          state[w] = 1;
          stack.push([w, 0]);
        }
      }
    }
  }
  const up: number[][] = nodes.map(() => []);
  for (let v = 0; v < n; v++) for (const w of down[v]) up[w].push(v);
  // ranks: longest path from the sources (Kahn's order), then sources pulled down
  const rank = new Int32Array(n);
  const indeg = Int32Array.from(up, (p) => p.length);
  const topo: number[] = [];
  for (let v = 0; v < n; v++) if (indeg[v] === 0) topo.push(v);
  for (let k = 0; k < topo.length; k++) {
    const v = topo[k];
    for (const w of down[v]) {
      rank[w] = Math.max(rank[w], rank[v] + 1);
      if (--indeg[w] === 0) topo.push(w);
    }
  }
  for (let k = topo.length - 1; k >= 0; k--) {
    const v = topo[k];
    if (up[v].length === 0 && down[v].length) rank[v] = Math.min(...down[v].map((w) => rank[w])) - 1;
  }
  // items: the nodes, then one slot per skipped rank of each edge; links between consecutive ranks
  const itemRank: number[] = Array.from(rank);
  const width: number[] = nodes.map(boxWidth);
  const height: number[] = nodes.map((v) => v.size);
  const dummy: boolean[] = nodes.map(() => false);
  const below: number[][] = nodes.map(() => []);
  const above: number[][] = nodes.map(() => []);
  const chains = new Map<string, number[]>();
  const link = (a: number, b: number) => {
    below[a].push(b);
    above[b].push(a);
  };
  for (let v = 0; v < n; v++) {
    for (const w of down[v]) {
      let prev = v;
      const chain: number[] = [];
      for (let r = rank[v] + 1; r < rank[w]; r++) {
        const d = itemRank.length;
        itemRank.push(r);
        width.push(EDGE_SEP);
        height.push(0);
        dummy.push(true);
        below.push([]);
        above.push([]);
        link(prev, d);
        chain.push(d);
        prev = d;
      }
      link(prev, w);
      chains.set(`${v}>${w}`, chain);
    }
  }
  const items = itemRank.length;
  const ranks = Math.max(0, ...itemRank) + 1;
  // order: depth-first from the sources (a subtree stays together), then barycentre sweeps
  const layers: number[][] = Array.from({ length: ranks }, () => []);
  const placedIn = new Uint8Array(items);
  const visit = (start: number) => {
    const stack = [start];
    while (stack.length) {
      const v = stack.pop() ?? 0;
      if (placedIn[v]) continue;
      placedIn[v] = 1;
      layers[itemRank[v]].push(v);
      for (let i = below[v].length - 1; i >= 0; i--) if (!placedIn[below[v][i]]) stack.push(below[v][i]);
    }
  };
  for (let v = 0; v < n; v++) if (above[v].length === 0) visit(v);
  for (let v = 0; v < items; v++) visit(v);
  const pos = new Float64Array(items);
  const number = (layer: number[]) => layer.forEach((v, i) => (pos[v] = i));
  layers.forEach(number);
  const sweep = (from: 'above' | 'below') => {
    const order = from === 'above' ? layers.keys() : [...layers.keys()].reverse();
    for (const r of order) {
      const near = from === 'above' ? above : below;
      const key = new Float64Array(items);
      for (const v of layers[r]) {
        const ns = near[v];
        key[v] = ns.length ? ns.reduce((sum, w) => sum + pos[w], 0) / ns.length : pos[v];
      }
      layers[r].sort((a, b) => key[a] - key[b] || pos[a] - pos[b]);
      number(layers[r]);
    }
  };
  for (let i = 0; i < 2; i++) {
    sweep('above');
    sweep('below');
  }
  // x: each box at the mean of its neighbours' centres in the rank before, kept apart
  const x = new Float64Array(items);
  const gap = (a: number, b: number) =>
    (width[a] + width[b]) / 2 + ((dummy[a] ? EDGE_SEP : NODE_SEP) + (dummy[b] ? EDGE_SEP : NODE_SEP)) / 2;
  for (const layer of layers) {
    let at = 0;
    layer.forEach((v, i) => {
      at = i === 0 ? width[v] / 2 : at + gap(layer[i - 1], v);
      x[v] = at;
    });
  }
  const place = (layer: number[], want: (v: number) => number) => {
    const m = layer.length;
    if (!m) return;
    const left = new Float64Array(m);
    const right = new Float64Array(m);
    for (let i = 0; i < m; i++) {
      const w = want(layer[i]);
      left[i] = i === 0 ? w : Math.max(w, left[i - 1] + gap(layer[i - 1], layer[i]));
    }
    for (let i = m - 1; i >= 0; i--) {
      const w = want(layer[i]);
      right[i] = i === m - 1 ? w : Math.min(w, right[i + 1] - gap(layer[i], layer[i + 1]));
    }
    for (let i = 0; i < m; i++) x[layer[i]] = (left[i] + right[i]) / 2;
  };
  const mean = (ns: number[], v: number) =>
    ns.length ? ns.reduce((sum, w) => sum + x[w], 0) / ns.length : x[v];
  for (let pass = 0; pass < 4; pass++) {
    if (pass % 2 === 0) for (let r = ranks - 2; r >= 0; r--) place(layers[r], (v) => mean(below[v], v));
    else for (let r = 1; r < ranks; r++) place(layers[r], (v) => mean(above[v], v));
  }
  // y: ranks top to bottom, each as tall as its tallest box, RANK_SEP apart
  const rankY: number[] = [];
  let y = MARGIN;
  for (let r = 0; r < ranks; r++) {
    const h = Math.max(0, ...layers[r].map((v) => height[v]));
    rankY.push(y + h / 2);
    y += h + RANK_SEP;
  }
  let minX = Infinity;
  for (let v = 0; v < items; v++) minX = Math.min(minX, x[v] - width[v] / 2);
  const shift = MARGIN - (Number.isFinite(minX) ? minX : 0);
  const boxes: Placement['boxes'] = new Map();
  nodes.forEach((v, i) =>
    boxes.set(v.id, { x: x[i] + shift, y: rankY[rank[i]], width: width[i], height: height[i] }),
  );
  const via: Placement['via'] = new Map();
  for (const [s, t] of kept) {
    const a = index.get(s) ?? 0;
    const b = index.get(t) ?? 0;
    const chain = chains.get(`${a}>${b}`) ?? chains.get(`${b}>${a}`) ?? [];
    via.set(
      `${s}>${t}`,
      chain.map((d) => ({ x: x[d] + shift, y: rankY[itemRank[d]] })),
    );
  }
  return { boxes, via };
}

/** The shapes' centres and the edges' orthogonal routes of a placement. */
function route(nodes: LayoutNode[], kept: [string, string][], placed: Placement): Layered {
  const positions = new Map<string, Point>();
  const boxTop = new Map<number, number>();
  const boxBottom = new Map<number, number>();
  for (const n of nodes) {
    const d = placed.boxes.get(n.id) ?? { x: 0, y: 0, width: 0, height: 0 };
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
    const points = placed.via.get(`${s}>${t}`) ?? [];
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
