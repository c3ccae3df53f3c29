import path from 'node:path';
import { childrenCpuMs, writeCpuRecord } from './cpu-time';

/**
 * `npm test` runs the test files in bundles (jest.suite.config.js): each tier's files (every
 * `*.test.ts` and `*.spec.ts` of its directory) are split into the `bundle-<k>-of-<n>.suite.ts`
 * files beside them, and a bundle runs its share in one jest module registry. Loading the service's
 * modules (about 3 CPU-s, `node dist/src/app.js` alone takes 2) and jest's per-file start are then
 * paid once per bundle instead of once per file. Each file still runs in a `describe` of its own
 * (named by its path), so its hooks, its service, its records and its failures stay its own; what a
 * bundle's files share is the module cache (as in production, where one process serves
 * everything) and the worker's database, which jest workers already shared between files.
 *
 * A single file still runs alone with `npx jest <file>` (jest.config.js).
 */

/* eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS, shared with jest's own process */
const { ROOT, bundleShare } = require('./bundles.cjs') as {
  ROOT: string;
  bundleShare: (bundleFile: string) => { files: string[]; weight: number } | undefined;
};

const TEST_TIMEOUT = Symbol.for('TEST_TIMEOUT_SYMBOL');

/**
 * Declares the tests of the bundle `bundleFile` (`__filename` of a `bundle-<k>-of-<n>.suite.ts`):
 * each of its files inside a `describe` named by the file's path, with the CPU and wall time it
 * took recorded for the slowest-files reporter. `jest.setTimeout` applies to a whole jest file,
 * so a bundle takes the longest any of its files asks for.
 */
export function runBundle(bundleFile: string): void {
  const share = bundleShare(bundleFile);
  if (!share) throw new Error(`${bundleFile} is not named bundle-<k>-of-<n>.suite.ts`);
  const globals = globalThis as unknown as Record<symbol, number | undefined>;
  let timeout = 0;
  for (const file of share.files) {
    const name = path.relative(ROOT, file);
    describe(name, () => {
      let cpu = process.cpuUsage();
      let children = childrenCpuMs();
      let started = Date.now();
      beforeAll(() => {
        cpu = process.cpuUsage();
        children = childrenCpuMs();
        started = Date.now();
      });
      const loadCpu = process.cpuUsage();
      const loadStarted = Date.now();
      globals[TEST_TIMEOUT] = undefined;
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle's whole point
      require(file);
      timeout = Math.max(timeout, globals[TEST_TIMEOUT] ?? 0);
      const load = process.cpuUsage(loadCpu);
      const loadMs = (load.user + load.system) / 1000;
      const loadWall = Date.now() - loadStarted;
      afterAll(() => {
        const used = process.cpuUsage(cpu);
        writeCpuRecord({
          file,
          bundle: bundleFile,
          ms: (used.user + used.system) / 1000 + loadMs,
          wall: Date.now() - started + loadWall,
          children: childrenCpuMs() - children,
        });
      });
    });
  }
  globals[TEST_TIMEOUT] = timeout || undefined;
}
