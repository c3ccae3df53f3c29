import { DAGRE_MAX_NODES, layered, type LayoutNode, type Point } from '../../web/src/pages/graph-layout';

/**
 * The graph page's layout, geometrically: no edge's route (its source's centre, its bends, its
 * target's centre) passes through the box (shape and label) of a node that is not one of its ends,
 * and no two boxes overlap; for dagre's layout (small graphs) and the linear one (big graphs).
 */

const LABEL_GAP = 4;

/** a deterministic pseudo-random sequence */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function nodesOf(count: number, rnd: () => number): LayoutNode[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `n${i}`,
    size: i === 0 ? 34 : 26,
    labelWidth: 4 + 6 * Math.floor(3 + rnd() * 16),
  }));
}

/** a tree of fan-out `k` (the bench's project graph) */
function tree(count: number, k: number): [LayoutNode[], [string, string][]] {
  const nodes = nodesOf(count, random(1));
  const edges: [string, string][] = nodes.slice(1).map((n, i) => [`n${Math.floor(i / k)}`, n.id]);
  return [nodes, edges];
}

/** a DAG with long edges, several parents, a few edges back up (cycles) */
function dag(count: number, seed: number): [LayoutNode[], [string, string][]] {
  const rnd = random(seed);
  const nodes = nodesOf(count, rnd);
  const edges: [string, string][] = [];
  for (let i = 1; i < count; i++) {
    const parents = 1 + Math.floor(rnd() * 2);
    for (let p = 0; p < parents; p++) edges.push([`n${Math.floor(rnd() * i)}`, `n${i}`]);
  }
  for (let i = 0; i < count / 50; i++)
    edges.push([`n${Math.floor(rnd() * count)}`, `n${Math.floor(rnd() * count)}`]);
  return [nodes, edges];
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** whether the segment a-b passes through the inside of the box (touching its border is not crossing) */
function crosses(a: Point, b: Point, box: Box): boolean {
  const e = 0.5;
  const [l, r, t, btm] = [box.left + e, box.right - e, box.top + e, box.bottom - e];
  // Liang-Barsky clipping of the segment against the shrunk box
  let t0 = 0;
  let t1 = 1;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  for (const [p, q] of [
    [-dx, a.x - l],
    [dx, r - a.x],
    [-dy, a.y - t],
    [dy, btm - a.y],
  ]) {
    if (p === 0) {
      if (q < 0) return false;
    } else {
      const u = q / p;
      if (p < 0) t0 = Math.max(t0, u);
      else t1 = Math.min(t1, u);
      if (t0 > t1) return false;
    }
  }
  return true;
}

function check(nodes: LayoutNode[], edges: [string, string][]): string[] {
  const { positions, bends } = layered(nodes, edges);
  const boxes = new Map<string, Box>();
  for (const n of nodes) {
    const p = positions.get(n.id);
    if (!p) throw new Error(`${n.id} has no position`);
    boxes.set(n.id, {
      left: p.x - n.size / 2,
      right: p.x + n.size / 2 + LABEL_GAP + n.labelWidth,
      top: p.y - n.size / 2,
      bottom: p.y + n.size / 2,
    });
  }
  const faults: string[] = [];
  const list = [...boxes.entries()];
  // boxes sorted by left edge: only neighbours in x can overlap
  for (const [id, box] of list) {
    for (const [other, b] of list) {
      if (other <= id) continue;
      if (
        box.left < b.right - 0.5 &&
        b.left < box.right - 0.5 &&
        box.top < b.bottom - 0.5 &&
        b.top < box.bottom - 0.5
      )
        faults.push(`boxes ${id} and ${other} overlap`);
    }
  }
  for (const [s, t] of edges) {
    if (s === t) continue;
    const route = bends.get(`${s}>${t}`);
    if (!route) continue;
    const line = [positions.get(s), ...route, positions.get(t)] as Point[];
    for (let i = 0; i + 1 < line.length; i++) {
      const [a, b] = [line[i], line[i + 1]];
      const [lo, hi] = [Math.min(a.x, b.x), Math.max(a.x, b.x)];
      for (const [id, box] of list) {
        if (id === s || id === t || box.right < lo || box.left > hi) continue;
        if (crosses(a, b, box)) faults.push(`edge ${s}>${t} crosses ${id}`);
      }
    }
  }
  return faults;
}

test.each([
  ['a tree of 40 (dagre)', ...tree(40, 3)],
  ['a DAG of 120 with long edges and cycles (dagre)', ...dag(120, 7)],
  [`a tree of 1000 (past ${DAGRE_MAX_NODES}: the linear layout)`, ...tree(1000, 3)],
  ['a DAG of 600 with long edges and cycles (the linear layout)', ...dag(600, 11)],
  ['a DAG of 1000 (the linear layout)', ...dag(1000, 3)],
])('%s: no edge crosses a node, no boxes overlap', (_name, nodes, edges) => {
  expect(check(nodes, edges).slice(0, 10)).toEqual([]);
});

test('the linear layout is layered: a parent above its children, an edge back up the only exception', () => {
  const [nodes, edges] = tree(1000, 3);
  const { positions } = layered(nodes, edges);
  for (const [s, t] of edges) expect(positions.get(s)?.y ?? 0).toBeLessThan(positions.get(t)?.y ?? 0);
});
