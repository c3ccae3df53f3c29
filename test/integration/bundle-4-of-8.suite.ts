import { runBundle } from '../support/bundle';

// this tier's test files, bundle 4 of 8 (test/support/bundle.ts)
runBundle(__filename);
