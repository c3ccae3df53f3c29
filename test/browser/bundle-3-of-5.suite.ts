import { runBundle } from '../support/bundle';

// this tier's test files, bundle 3 of 5 (test/support/bundle.ts)
runBundle(__filename);
