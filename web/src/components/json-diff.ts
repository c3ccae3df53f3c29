/** One difference between two JSON documents, at a dot-separated path. */
export interface DiffLine {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The differences from `before` to `after`, walking into objects (arrays and scalars compare
 * whole), in key order; at most `limit` lines (the rest is counted, not listed).
 */
export function diffJson(before: unknown, after: unknown, limit = 200): { lines: DiffLine[]; more: number } {
  const lines: DiffLine[] = [];
  let more = 0;
  const push = (line: DiffLine) => {
    if (lines.length < limit) lines.push(line);
    else more += 1;
  };
  const walk = (a: unknown, b: unknown, path: string) => {
    if (isObject(a) && isObject(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      for (const k of keys) {
        const p = path ? `${path}.${k}` : k;
        if (!(k in b)) push({ path: p, kind: 'removed', before: a[k] });
        else if (!(k in a)) push({ path: p, kind: 'added', after: b[k] });
        else walk(a[k], b[k], p);
      }
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b))
      push({ path: path || '(whole document)', kind: 'changed', before: a, after: b });
  };
  walk(before ?? {}, after ?? {}, '');
  return { lines, more };
}

/** What a top-level merge of `patch` into `current` does (keys replaced whole, as the API merges). */
export function mergeTopLevel(
  current: Record<string, unknown> | null | undefined,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  return { ...(current ?? {}), ...patch };
}

/** The existing top-level keys of `current` that `patch` would replace with a different value. */
export function replacedKeys(
  current: Record<string, unknown> | null | undefined,
  patch: Record<string, unknown>,
): string[] {
  const cur = current ?? {};
  return Object.keys(patch).filter((k) => k in cur && JSON.stringify(cur[k]) !== JSON.stringify(patch[k]));
}

/** A short text for a JSON value in a diff line. */
export function showValue(v: unknown): string {
  const s = JSON.stringify(v) as string | undefined;
  if (s === undefined) return 'nothing';
  return s.length > 120 ? `${s.slice(0, 117)}…` : s;
}
