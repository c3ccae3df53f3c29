// How `npm test` splits each tier's test files into bundles (bundle.ts runs one; the sequencer,
// bundle-sequencer.cjs, starts the longest first). Plain CommonJS: jest's own process loads it.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const BUNDLE = /^bundle-(\d+)-of-(\d+)\.suite\.ts$/;
const TEST_FILE = /\.(test|spec)\.ts$/;

/** Measured seconds per file (wall, in a whole run), to balance the bundles: suite-weights.json. */
const WEIGHTS = JSON.parse(fs.readFileSync(path.join(__dirname, 'suite-weights.json'), 'utf8'));

/** The test files of `dir`, sorted. */
function tierFiles(dir) {
  return fs
    .readdirSync(dir)
    .filter((name) => TEST_FILE.test(name))
    .sort()
    .map((name) => path.join(dir, name));
}

/** How many bundle files `dir` has, checked to be bundle-1-of-n to bundle-n-of-n of one n. */
function tierBundles(dir) {
  const found = fs
    .readdirSync(dir)
    .map((name) => BUNDLE.exec(name))
    .filter((m) => m !== null);
  const n = found.length === 0 ? 0 : Number(found[0][2]);
  const ks = new Set(found.map((m) => Number(m[1])));
  if (found.some((m) => Number(m[2]) !== n) || ks.size !== n || [...ks].some((k) => k < 1 || k > n)) {
    throw new Error(
      `${dir}: the bundle files must be bundle-1-of-n.suite.ts to bundle-n-of-n.suite.ts, one n`,
    );
  }
  return n;
}

/**
 * `files` in `n` bundles of about equal weight (the heaviest first, each to the lightest bundle so
 * far); a file not in suite-weights.json weighs the median. Every file is in exactly one bundle.
 */
function partition(files, n) {
  const known = files
    .map((f) => WEIGHTS[path.relative(ROOT, f)])
    .filter((w) => w !== undefined)
    .sort((a, b) => a - b);
  const median = known.length ? known[Math.floor(known.length / 2)] : 1;
  const weight = (f) => WEIGHTS[path.relative(ROOT, f)] ?? median;
  const bundles = Array.from({ length: n }, () => ({ files: [], total: 0 }));
  const byWeight = [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));
  for (const file of byWeight) {
    const lightest = bundles.reduce((min, b) => (b.total < min.total ? b : min));
    lightest.files.push(file);
    lightest.total += weight(file);
  }
  return bundles.map((b) => ({ files: b.files.sort(), weight: b.total }));
}

/** The files of the bundle `bundleFile` and their weight, or undefined when it is not a bundle. */
function bundleShare(bundleFile) {
  const m = BUNDLE.exec(path.basename(bundleFile));
  if (!m) return undefined;
  const dir = path.dirname(bundleFile);
  return partition(tierFiles(dir), tierBundles(dir))[Number(m[1]) - 1];
}

module.exports = { ROOT, BUNDLE, TEST_FILE, tierFiles, tierBundles, partition, bundleShare };
