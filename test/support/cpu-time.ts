import fs from 'node:fs';
import path from 'node:path';

/** Where the per-file CPU records go (made by global-setup.ts), if anywhere. */
export function cpuDir(): string | undefined {
  return process.env.TEST_CPU_DIR;
}

/** CPU ms of the child processes this one has waited for (Linux: /proc/self/stat), else 0. */
export function childrenCpuMs(): number {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // cutime and cstime, fields 16 and 17 of the whole line, in clock ticks (100 per second)
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

/**
 * Appends one record for the slowest-files reporter to this process's file in {@link cpuDir}
 * (nothing when there is none): a jest file's (file-cpu.ts) or a bundled file's (bundle.ts).
 */
export function writeCpuRecord(record: Record<string, unknown>): void {
  const dir = cpuDir();
  if (!dir) return;
  fs.appendFileSync(
    path.join(dir, `${process.pid}.jsonl`),
    `${JSON.stringify({ pid: process.pid, ...record })}\n`,
  );
}
