import type { ComponentChildren } from 'preact';

/** One column: its header and what each row shows in it. */
export interface Column<R> {
  header: ComponentChildren;
  cell: (row: R) => ComponentChildren;
  /** the header's text for screen readers when `header` shows none (an actions column) */
  hiddenHeader?: string;
}

/**
 * The markup every table page repeats: the query's error, a loading status, the message for no
 * rows, and the table with a caption (read by screen readers, hidden on screen) and `scope="col"`
 * headers. `rows` is null until the query answers.
 */
export function DataTable<R>({
  caption,
  columns,
  rows,
  rowKey,
  loading = false,
  error,
  empty,
  class: className = 'results',
}: {
  caption: string;
  columns: Column<R>[];
  rows: readonly R[] | null | undefined;
  rowKey: (row: R) => string | number;
  loading?: boolean;
  error?: string | null;
  empty: ComponentChildren;
  class?: string;
}) {
  return (
    <>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {loading && !rows?.length && <p role="status">Loading…</p>}
      {!loading && !error && rows?.length === 0 && <p>{empty}</p>}
      {rows && rows.length > 0 && (
        <div class="tablewrap">
          <table class={className}>
            <caption class="visually-hidden">{caption}</caption>
            <thead>
              <tr>
                {columns.map((c, i) => (
                  <th key={i} scope="col">
                    {c.hiddenHeader ? <span class="visually-hidden">{c.hiddenHeader}</span> : c.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={rowKey(r)}>
                  {columns.map((c, i) => (
                    <td key={i}>{c.cell(r)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
