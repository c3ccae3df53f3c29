const fs = require('node:fs');
const path = require('node:path');
const base = require('./jest.config.js');
const { TEST_FILE, tierBundles } = require('./test/support/bundles.cjs');

// `npm test`: every tier's test files in bundles (test/support/bundle.ts), each bundle one jest
// file, the longest started first. A tier directory with test files must have bundle files, or
// its files would not run.
const testDir = path.join(__dirname, 'test');
for (const tier of fs.readdirSync(testDir)) {
  const dir = path.join(testDir, tier);
  if (!fs.statSync(dir).isDirectory() || !fs.readdirSync(dir).some((n) => TEST_FILE.test(n))) continue;
  if (tierBundles(dir) === 0)
    throw new Error(
      `test/${tier} has test files but no bundle-1-of-<n>.suite.ts: npm test would not run them`,
    );
}

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ['<rootDir>/test'],
  testMatch: ['**/test/*/bundle-*-of-*.suite.ts'],
  testSequencer: '<rootDir>/test/support/bundle-sequencer.cjs',
};
