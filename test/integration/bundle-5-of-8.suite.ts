import { runBundle } from '../support/bundle';

// this tier's test files, bundle 5 of 8 (test/support/bundle.ts)
runBundle(__filename);
