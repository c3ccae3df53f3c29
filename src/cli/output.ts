/**
 * What the command-line tools print: a table for people, or JSON (`--json`) for scripts. Output
 * is the interface of a command-line tool, so it goes straight to stdout.
 */
export type Row = Record<string, unknown>;

export function line(text: string): void {
  process.stdout.write(`${text}\n`);
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Prints rows as aligned columns with a header, or as a JSON array. */
export function printRows(rows: Row[], columns: string[], json: boolean): void {
  if (json) {
    line(JSON.stringify(rows, null, 2));
    return;
  }
  const table = [columns, ...rows.map((r) => columns.map((c) => cell(r[c])))];
  const widths = columns.map((_, i) => Math.max(...table.map((r) => r[i].length)));
  for (const r of table)
    line(
      r
        .map((v, i) => v.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    );
}

/** Prints the outcome of an action: `text` for people, `value` as JSON for scripts. */
export function printResult(text: string, value: Row, json: boolean): void {
  line(json ? JSON.stringify(value, null, 2) : text);
}
