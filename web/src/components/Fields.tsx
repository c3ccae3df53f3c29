import type { ComponentChildren } from 'preact';

/** A record's fields as a description list; empty values are left out. */
export function Fields({ rows }: { rows: [string, ComponentChildren][] }) {
  return (
    <dl class="fields">
      {rows
        .filter(([, v]) => v !== null && v !== undefined && v !== '')
        .map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
    </dl>
  );
}

export const userName = (
  u:
    | { username?: string | null; firstName?: string | null; lastName?: string | null; uniqueId: string }
    | null
    | undefined,
): string => (u ? [u.firstName, u.lastName].filter(Boolean).join(' ') || u.username || u.uniqueId : '');

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

/** The page of a record kind: /datasets/…, /samples/… */
export const pageOf = (type: string, id: string): string =>
  `/${type === 'sample' ? 'samples' : 'datasets'}/${encodeURIComponent(id)}`;
