import type { TestApp } from './app';

/** Runs the app's job worker until its queues hold nothing due; returns how many jobs ran. */
export function drainJobs(t: TestApp): Promise<number> {
  return t.app.jobs.drain();
}
