import { runBundle } from '../support/bundle';

// this tier's test files, bundle 2 of 2 (test/support/bundle.ts)
runBundle(__filename);
