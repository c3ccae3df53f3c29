import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export { freePort } from '../../scripts/lib/process';

/** The compiled service (built by `pretest`). */
export const DIST = path.resolve(__dirname, '../../dist/src');

export interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Runs processes of the compiled service for end-to-end tests and kills what is left over.
 * `DATABASE_URL` is passed only when `env` gives it (otherwise: the embedded database).
 */
export class ServiceProcesses {
  private readonly children: ChildProcess[] = [];

  /**
   * Runs `dist/src/<script>`; with `until`, waits for that text in its output (up to `waitMs`: a
   * first start on a fresh DATA_DIR creates the embedded database, slow on a loaded machine).
   */
  async run(
    script: string,
    args: string[],
    env: Record<string, string>,
    until?: string,
    waitMs = 180_000,
  ): Promise<Running> {
    const childEnv: Record<string, string> = {
      ...(process.env as Record<string, string>),
      LOG_LEVEL: 'info',
      ...env,
    };
    if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
    const child = spawn(process.execPath, [path.join(DIST, script), ...args], {
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.children.push(child);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const deadline = Date.now() + waitMs;
    while (until && !out.includes(until)) {
      if (child.exitCode !== null) throw new Error(`${script} exited early:\n${out}`);
      if (Date.now() > deadline) throw new Error(`${script} did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { child, output: () => out, exited };
  }

  killAll(): void {
    for (const c of this.children) if (c.exitCode === null) c.kill('SIGKILL');
  }
}
