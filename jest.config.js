const os = require('node:os');

/** @type {import('jest').Config} */
module.exports = {
  // One worker more than the cores, at least three: with one, jest runs the files in its own
  // process, beside the embedded database (global-setup.ts), so the service, the test and the
  // database share one thread; the browser tests wait on Chromium about half of their time, and a
  // third worker on two cores fills that (npm test: 700 s with two workers, 603 s with three, on
  // 2026-11-27; docs/development.md "Test suite time"). Each has a database of its own
  // (test/support/worker-db.ts).
  maxWorkers: Math.max(3, os.availableParallelism() + 1),
  testEnvironment: 'node',
  // the slowest files are printed at the end of every run (test/support/slowest-files-reporter.cjs)
  reporters: ['default', '<rootDir>/test/support/slowest-files-reporter.cjs'],
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts', '**/*.spec.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  setupFiles: ['<rootDir>/test/support/setup-env.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/support/file-cpu.ts'],
  // generous: the machine running CI may be shared and loaded (a hook that seeds a world took over 60 s at load 26)
  testTimeout: 180000,
  // openid-client and what it uses, and parse5 (the tests' HTML parser), are ES modules only: compiled to CommonJS like the sources
  transformIgnorePatterns: ['/node_modules/(?!(openid-client|oauth4webapi|jose|parse5|entities)/)'],
  transform: {
    '/node_modules/(openid-client|oauth4webapi|jose|parse5|entities)/.+\\.js$': [
      '@swc/jest',
      { jsc: { target: 'es2022' }, module: { type: 'commonjs' } },
    ],
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
};
