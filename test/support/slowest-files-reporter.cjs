// A jest reporter (wired in jest.config.js): at the end of every run of more than one file, the
// slowest test files by wall time from the file's start to its end (module load, boot, hooks and
// tests), each with the CPU time its worker and its child processes spent on it
// (test/support/file-cpu.ts) and its count of tests, then the CPU time of jest's own process,
// where the global setup and the embedded databases run (files it ran itself, in band, left out).
// SLOWEST_FILES=<n> changes how many files are shown (0: none).
const fs = require('node:fs');
const path = require('node:path');

/** The CPU milliseconds per test file written by file-cpu.ts, then the directory removed. */
function cpuByFile() {
  const dir = process.env.TEST_CPU_DIR;
  const byFile = new Map();
  if (!dir || !fs.existsSync(dir)) return byFile;
  for (const name of fs.readdirSync(dir)) {
    for (const line of fs.readFileSync(path.join(dir, name), 'utf8').split('\n')) {
      if (!line) continue;
      const { file, pid, ms, children } = JSON.parse(line);
      byFile.set(file, { pid, ms, children });
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return byFile;
}

const seconds = (ms) => (ms / 1000).toFixed(1).padStart(6);

class SlowestFilesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.count = Number(process.env.SLOWEST_FILES ?? 15);
  }

  onRunComplete(_contexts, results) {
    const cpu = cpuByFile();
    const files = results.testResults
      .filter((r) => r.perfStats && r.perfStats.end > 0)
      .map((r) => ({
        file: path.relative(this.rootDir, r.testFilePath),
        ms: r.perfStats.end - r.perfStats.start,
        cpu: cpu.get(r.testFilePath)?.ms,
        children: cpu.get(r.testFilePath)?.children,
        inBand: cpu.get(r.testFilePath)?.pid === process.pid,
        tests: r.numPassingTests + r.numFailingTests + r.numPendingTests + r.numTodoTests,
      }));
    if (files.length < 2 || this.count <= 0) return;
    const sum = (list, key) => list.reduce((total, f) => total + (f[key] ?? 0), 0);
    const lines = files
      .sort((a, b) => b.ms - a.ms)
      .slice(0, this.count)
      .map(
        (f) =>
          `  ${seconds(f.ms)} s ${f.cpu === undefined ? '      ' : seconds(f.cpu)} s ` +
          `${f.children === undefined ? '      ' : seconds(f.children)} s ` +
          `${String(f.tests).padStart(5)}  ${f.file}`,
      );
    // files jest ran in its own process (in band) are not the databases' time
    const used = process.cpuUsage();
    const main =
      (used.user + used.system) / 1000 -
      sum(
        files.filter((f) => f.inBand),
        'cpu',
      );
    process.stderr.write(
      `\nSlowest ${lines.length} of ${files.length} test files:\n` +
        `  ${'wall'.padStart(6)}   ${'CPU'.padStart(6)}   ${'child'.padStart(6)}   ${'tests'.padStart(5)}  file ` +
        `(CPU: its worker's; child: its child processes')\n` +
        `${lines.join('\n')}\n` +
        `  run: ${seconds(Date.now() - results.startTime)} s wall; ` +
        `${seconds(sum(files, 'cpu'))} s CPU in the workers and ${seconds(sum(files, 'children'))} s in their ` +
        `child processes (all files), ` +
        `${seconds(main)} s in jest's own process (global setup, the embedded databases)\n`,
    );
  }
}

module.exports = SlowestFilesReporter;
