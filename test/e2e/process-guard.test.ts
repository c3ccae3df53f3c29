import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ServiceProcesses, freePort } from '../support/process';
import { onServer } from '../support/pg-server';
import { seedEmbeddedDb } from '../support/embedded-template';

/**
 * The process guard (main.ts): an error nothing handled is logged, and the process stops the way
 * SIGTERM stops it (the embedded database closed, not killed) with exit code 1. The service has
 * no way to raise one on purpose, so the fault comes from outside: a module preloaded into the
 * real process (NODE_OPTIONS --import) throws, or leaves a rejection unhandled, on SIGUSR2.
 */
const processes = new ServiceProcesses();

let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-guard-'));
  if (!onServer) seedEmbeddedDb(dataDir);
});
afterAll(() => {
  processes.killAll();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** NODE_OPTIONS preloading a module that runs `code` on SIGUSR2 (no spaces: a data: URL). */
const onSignal = (code: string) =>
  `--import=data:text/javascript,${encodeURIComponent(`process.on('SIGUSR2', () => { ${code} });`)}`;

test.each([
  ['an uncaught exception', "throw new Error('injected fault');", 'uncaught exception'],
  ['an unhandled rejection', "Promise.reject(new Error('injected fault'));", 'unhandled promise rejection'],
])(
  '%s is logged, then the service stops cleanly with exit code 1',
  async (_name, code, message) => {
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      NODE_OPTIONS: onSignal(code),
    };
    if (onServer) env.DATABASE_URL = process.env.DATABASE_URL!;
    const run = await processes.run('main.js', [], env, 'catalog service listening');
    run.child.kill('SIGUSR2');
    expect(await run.exited).toBe(1);
    const lines = run.output().split('\n');
    const fatal = lines.find((l) => l.includes(`"msg":"${message}"`));
    expect(fatal).toContain('"level":60');
    expect(fatal).toContain('injected fault');
    // the same way out as SIGTERM: every stopper ran, the embedded database was closed
    expect(lines.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'embedded-db.json'))).toBe(false);
  },
  300_000,
);
