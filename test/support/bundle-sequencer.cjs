// The order `npm test` starts its bundles in: the longest expected first (their files' weights,
// bundles.cjs), so that the workers finish together instead of one running a long bundle alone at
// the end. (Planning the order so that browser bundles, which wait on Chromium about half of
// their time, run beside busy ones measured no better: 639 s against 603 s, one run each.)
// Files that are not bundles keep jest's order, after the bundles.
const Sequencer = require('@jest/test-sequencer').default;
const { bundleShare } = require('./bundles.cjs');

class BundleSequencer extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const weight = new Map(ordered.map((t) => [t, bundleShare(t.path)?.weight ?? -1]));
    return [...ordered].sort((a, b) => weight.get(b) - weight.get(a));
  }
}

module.exports = BundleSequencer;
