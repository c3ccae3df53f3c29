import { runBundle } from '../support/bundle';

// this tier's test files, bundle 8 of 8 (test/support/bundle.ts)
runBundle(__filename);
