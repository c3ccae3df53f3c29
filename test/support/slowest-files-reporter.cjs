// A jest reporter (wired in jest.config.js): at the end of every run of more than one file, the
// slowest test files by wall time from the file's start to its end (module load, boot, hooks and
// tests), each with the CPU time its worker and its child processes spent on it
// (test/support/file-cpu.ts) and its count of tests, then the CPU time of jest's own process,
// where the global setup and the embedded databases run (files it ran itself, in band, left out).
// SLOWEST_FILES=<n> changes how many files are shown (0: none).
const fs = require('node:fs');
const path = require('node:path');

/**
 * The records written by file-cpu.ts (one per jest file) and bundle.ts (one per file of a bundle,
 * with its bundle and wall time), then the directory removed.
 */
function cpuRecords() {
  const dir = process.env.TEST_CPU_DIR;
  const records = [];
  if (!dir || !fs.existsSync(dir)) return records;
  for (const name of fs.readdirSync(dir)) {
    for (const line of fs.readFileSync(path.join(dir, name), 'utf8').split('\n')) {
      if (line) records.push(JSON.parse(line));
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return records;
}

const seconds = (ms) => (ms / 1000).toFixed(1).padStart(6);
const countTests = (results) =>
  results.filter((t) => ['passed', 'failed', 'pending', 'todo'].includes(t.status)).length;

class SlowestFilesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.count = Number(process.env.SLOWEST_FILES ?? 15);
  }

  onRunComplete(_contexts, results) {
    const records = cpuRecords();
    const own = new Map(records.filter((r) => !r.bundle).map((r) => [r.file, r]));
    const jestFiles = results.testResults.filter((r) => r.perfStats && r.perfStats.end > 0);
    const files = [];
    for (const r of jestFiles) {
      const members = records.filter((m) => m.bundle === r.testFilePath);
      if (members.length === 0) {
        files.push({
          file: path.relative(this.rootDir, r.testFilePath),
          ms: r.perfStats.end - r.perfStats.start,
          cpu: own.get(r.testFilePath)?.ms,
          children: own.get(r.testFilePath)?.children,
          tests: countTests(r.testResults),
        });
        continue;
      }
      for (const m of members) {
        const file = path.relative(this.rootDir, m.file);
        files.push({
          file,
          ms: m.wall,
          cpu: m.ms,
          children: m.children,
          tests: countTests(r.testResults.filter((t) => t.ancestorTitles[0] === file)),
        });
      }
    }
    if (process.env.SUITE_WEIGHTS_OUT) {
      // the weights bundles.cjs balances the bundles by: each file's wall seconds in this run
      const weights = Object.fromEntries(
        [...files]
          .sort((a, b) => a.file.localeCompare(b.file))
          .map((f) => [f.file, Math.round(f.ms / 100) / 10]),
      );
      fs.writeFileSync(process.env.SUITE_WEIGHTS_OUT, `${JSON.stringify(weights, null, 2)}\n`);
    }
    if (files.length < 2 || this.count <= 0) return;
    // totals from each jest file's own record: a bundle's covers its module loading too
    const totals = { cpu: 0, children: 0, inBand: 0 };
    for (const r of jestFiles) {
      const rec = own.get(r.testFilePath);
      if (!rec) continue;
      totals.cpu += rec.ms;
      totals.children += rec.children;
      if (rec.pid === process.pid) totals.inBand += rec.ms;
    }
    const lines = files
      .sort((a, b) => b.ms - a.ms)
      .slice(0, this.count)
      .map(
        (f) =>
          `  ${seconds(f.ms)} s ${f.cpu === undefined ? '      ' : seconds(f.cpu)} s ` +
          `${f.children === undefined ? '      ' : seconds(f.children)} s ` +
          `${String(f.tests).padStart(5)}  ${f.file}`,
      );
    const bundles = jestFiles
      .filter((r) => records.some((m) => m.bundle === r.testFilePath))
      .map((r) => ({
        file: path.relative(this.rootDir, r.testFilePath),
        ms: r.perfStats.end - r.perfStats.start,
      }))
      .sort((a, b) => b.ms - a.ms);
    // files jest ran in its own process (in band) are not the databases' time
    const used = process.cpuUsage();
    const main = (used.user + used.system) / 1000 - totals.inBand;
    process.stderr.write(
      `\nSlowest ${lines.length} of ${files.length} test files:\n` +
        `  ${'wall'.padStart(6)}   ${'CPU'.padStart(6)}   ${'child'.padStart(6)}   ${'tests'.padStart(5)}  file ` +
        `(CPU: its worker's; child: its child processes')\n` +
        `${lines.join('\n')}\n` +
        (bundles.length
          ? `  in ${bundles.length} bundles (bundle.ts), the slowest ${bundles
              .slice(0, 3)
              .map((b) => `${b.file} ${seconds(b.ms).trim()} s`)
              .join(', ')}\n`
          : '') +
        `  run: ${seconds(Date.now() - results.startTime)} s wall; ` +
        `${seconds(totals.cpu)} s CPU in the workers and ${seconds(totals.children)} s in their ` +
        `child processes (all files), ` +
        `${seconds(main)} s in jest's own process (global setup, the embedded databases)\n`,
    );
  }
}

module.exports = SlowestFilesReporter;
