import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { freePort } from '../lib/process';

/**
 * `npm run bench:start`: how long a start takes to "catalog service listening", and the
 * service's resident memory once idle, on the embedded database of a DATA_DIR made (and
 * migrated) by a first start outside the figures. Each target is a command run in a directory;
 * rounds alternate the targets and the table gives medians.
 *
 *   BENCH_START_TARGETS  `label=dir::command` separated by `;;` (default: `npm start` and
 *                        `node dist/src/main.js` in this checkout)
 *   BENCH_START_ROUNDS   rounds (default 5)
 *   BENCH_START_IDLE_MS  how long the service idles before its memory is read (default 10000)
 *
 * wall: from spawning the command to the listening line; process: the service process's own
 * start (its `startMs`: Node's start to listening); rss: VmRSS of the service process after idling.
 */
const ROOT = path.resolve(__dirname, '..', '..', '..');
const ROUNDS = Number(process.env.BENCH_START_ROUNDS ?? 5);
const IDLE_MS = Number(process.env.BENCH_START_IDLE_MS ?? 10_000);

interface Target {
  label: string;
  dir: string;
  command: string;
}

function targets(): Target[] {
  const spec =
    process.env.BENCH_START_TARGETS ??
    `npm start=${ROOT}::npm start;;node main.js=${ROOT}::node dist/src/main.js`;
  return spec.split(';;').map((t) => {
    const [head, command] = t.split('::');
    const [label, dir] = head.split('=');
    return { label, dir: path.resolve(dir), command };
  });
}

interface Run {
  wallMs: number;
  processMs: number;
  rssMiB: number;
}

/** The service process among those of process group `group` (npm, its shell, node main.js). */
function servicePid(group: number): number {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      // node itself, not the shell npm runs it from
      const service = path.basename(argv[0]) === 'node' && argv.some((a) => a.endsWith('dist/src/main.js'));
      if (Number(fields[2]) === group && service) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no service process in process group ${String(group)}`);
}

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)/.exec(status);
  return kb ? Number(kb[1]) / 1024 : NaN;
}

async function runOnce(target: Target, dataDir: string, idleMs: number): Promise<Run> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn('bash', ['-c', `exec ${target.command}`], {
    cwd: target.dir,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  try {
    const line = await new Promise<{ startMs?: number }>((resolve, reject) => {
      const lines = readline.createInterface({ input: child.stdout });
      lines.on('line', (text) => {
        if (!text.includes('catalog service listening')) return;
        resolve(JSON.parse(text) as { startMs?: number });
      });
      child.once('exit', (code) => {
        reject(new Error(`${target.label} exited with ${String(code)}`));
      });
    });
    const wallMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    return { wallMs, processMs: line.startMs ?? NaN, rssMiB: rssMiB(servicePid(child.pid ?? 0)) };
  } finally {
    // the whole process group this run started (npm, its shell, the service)
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main(): Promise<void> {
  const list = targets();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-bench-start-'));
  try {
    // the first start makes and migrates the database: not a figure
    await runOnce({ label: 'setup', dir: ROOT, command: 'node dist/src/main.js' }, dataDir, 0);
    const runs = new Map<string, Run[]>(list.map((t) => [t.label, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of list) runs.get(target.label)?.push(await runOnce(target, dataDir, IDLE_MS));
    }
    console.log(`${ROUNDS} rounds, idle ${IDLE_MS} ms before reading memory, ${os.cpus().length} CPUs`);
    console.log(
      'target'.padEnd(24) +
        'wall to listening'.padStart(20) +
        'process start'.padStart(16) +
        'idle RSS'.padStart(12),
    );
    for (const target of list) {
      const r = runs.get(target.label) ?? [];
      console.log(
        target.label.padEnd(24) +
          `${(median(r.map((x) => x.wallMs)) / 1000).toFixed(2)} s`.padStart(20) +
          `${(median(r.map((x) => x.processMs)) / 1000).toFixed(2)} s`.padStart(16) +
          `${median(r.map((x) => x.rssMiB)).toFixed(0)} MiB`.padStart(12),
      );
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
