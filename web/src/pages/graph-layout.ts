/**
 * Rings for the concentric layout: each node's distance (ignoring direction) from the roots —
 * the given ones, or else the nodes without parents; nodes not reached get the next ring.
 */
export function levels(ids: string[], edges: [string, string][], roots?: string[]): Map<string, number> {
  const next = new Map<string, string[]>(ids.map((id) => [id, []]));
  const hasParent = new Set<string>();
  for (const [s, t] of edges) {
    next.get(s)?.push(t);
    next.get(t)?.push(s);
    hasParent.add(t);
  }
  const start = roots?.filter((r) => next.has(r)) ?? ids.filter((id) => !hasParent.has(id));
  const ring = new Map<string, number>();
  let frontier = start.length ? start : ids.slice(0, 1);
  for (const id of frontier) ring.set(id, 0);
  for (let depth = 1; frontier.length; depth++) {
    const found: string[] = [];
    for (const id of frontier)
      for (const n of next.get(id) ?? [])
        if (!ring.has(n)) {
          ring.set(n, depth);
          found.push(n);
        }
    frontier = found;
  }
  const last = Math.max(0, ...ring.values()) + 1;
  for (const id of ids) if (!ring.has(id)) ring.set(id, last);
  return ring;
}
