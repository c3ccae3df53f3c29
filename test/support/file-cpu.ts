import { childrenCpuMs, cpuDir, writeCpuRecord } from './cpu-time';

/**
 * Records the CPU time the worker spent on this test file (from before its modules load to the
 * afterAll hooks, its own closing ones excepted), and that of the child processes it started
 * that had ended by then, for the slowest-files reporter (slowest-files-reporter.cjs). The
 * embedded databases run in jest's own process: the reporter shows that process's time apart.
 * A bundle (bundle.ts) also records each of its files apart.
 */
if (cpuDir()) {
  const start = process.cpuUsage();
  const children = childrenCpuMs();
  afterAll(() => {
    const used = process.cpuUsage(start);
    writeCpuRecord({
      file: expect.getState().testPath,
      ms: (used.user + used.system) / 1000,
      children: childrenCpuMs() - children,
    });
  });
}
