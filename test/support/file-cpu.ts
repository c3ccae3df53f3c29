import fs from 'node:fs';
import path from 'node:path';

/**
 * Records the CPU time the worker spent on this test file (from before its modules load to the
 * afterAll hooks, its own closing ones excepted), and that of the child processes it started
 * that had ended by then, for the slowest-files reporter (slowest-files-reporter.cjs). The
 * embedded databases run in jest's own process: the reporter shows that process's time apart.
 */
const dir = process.env.TEST_CPU_DIR;

/** CPU ms of the child processes this one has waited for (Linux: /proc/self/stat), else 0. */
function childrenMs(): number {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // cutime and cstime, fields 16 and 17 of the whole line, in clock ticks (100 per second)
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

if (dir) {
  const start = process.cpuUsage();
  const children = childrenMs();
  afterAll(() => {
    const used = process.cpuUsage(start);
    const line = JSON.stringify({
      file: expect.getState().testPath,
      pid: process.pid,
      ms: (used.user + used.system) / 1000,
      children: childrenMs() - children,
    });
    fs.appendFileSync(path.join(dir, `${process.pid}.jsonl`), `${line}\n`);
  });
}
