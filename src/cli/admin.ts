#!/usr/bin/env node
import { runAdmin } from './admin-run';

// the command line of docs/operations.md, "The admin command line" (commands in admin-run.ts)
void runAdmin(process.argv.slice(2)).then((code) => {
  // a failed command exits at once (an open handle must not keep it alive); others end naturally
  if (code === 1) process.exit(1);
  process.exitCode = code;
});
