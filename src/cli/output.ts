import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the command-line tools print: a table for people, or JSON (`--json`) for scripts. Output
 * is the interface of a command-line tool: stdout for the result, stderr for what the command
 * tells its operator (which database, warnings).
 */
export type Row = Record<string, unknown>;

/** Where a command reads its settings and writes its output: the process's, or a caller's. */
export interface CliIo {
  env: Record<string, string | undefined>;
  out(text: string): void;
  err(text: string): void;
}

const PROCESS_IO: CliIo = {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

const current = new AsyncLocalStorage<CliIo>();

/** The running command's settings and output (the process's unless {@link withIo} gave others). */
export function cliIo(): CliIo {
  return current.getStore() ?? PROCESS_IO;
}

/** Runs `fn` as a command whose settings and output are `io` (a test runs commands in-process). */
export function withIo<T>(io: CliIo, fn: () => Promise<T>): Promise<T> {
  return current.run(io, fn);
}

export function line(text: string): void {
  cliIo().out(`${text}\n`);
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
