import { runBundle } from '../support/bundle';

// this tier's test files, bundle 1 of 1 (test/support/bundle.ts)
runBundle(__filename);
