import fsp from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

const SEP = '~';
/** Entries of other hosts (or of an unknown form) are taken as abandoned after this long. */
const FOREIGN_MAX_AGE_MS = 24 * 3600 * 1000;

/**
 * The prefix of this process's temporary files and directories: `<host>~<pid>~`. It lets a
 * later process tell leftovers of a dead process (same host, that pid no longer running) from
 * the work of a live one sharing the directory.
 */
export function processTag(): string {
  return `${hostname().replace(/[^\w.-]/g, '_')}${SEP}${process.pid}${SEP}`;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * True when the entry named `name` was left by a process that is gone: tagged by this host with
 * a pid not running, tagged by another host (or, when `untagged`, not tagged) and a day old.
 */
function abandoned(name: string, mtimeMs: number, untagged: boolean): boolean {
  const [host, pid, rest] = name.split(SEP) as (string | undefined)[];
  const tagged = rest !== undefined && /^\d+$/.test(pid ?? '');
  if (tagged && host === hostname().replace(/[^\w.-]/g, '_')) {
    // our own pid cannot have written anything yet: a predecessor with the same pid (containers)
    return Number(pid) === process.pid || !running(Number(pid));
  }
  return (tagged || untagged) && Date.now() - mtimeMs > FOREIGN_MAX_AGE_MS;
}

/**
 * Removes what dead processes left in `dir`: entries named by {@link processTag}, and with
 * `untagged` (a directory only this service writes to) anything else once a day old. Called at
 * start, before this process writes there. Returns the number of entries removed.
 */
export async function sweepLeftovers(dir: string, untagged = false): Promise<number> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let removed = 0;
  for (const name of names) {
    const entry = path.join(dir, name);
    const stat = await fsp.lstat(entry).catch(() => null);
    if (!stat || !abandoned(name, stat.mtimeMs, untagged)) continue;
    await fsp.rm(entry, { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/**
 * This process's scratch directory under `parent` (`<parent>/<host>~<pid>~`), created empty
 * after sweeping what dead processes left there.
 */
export async function processScratchDir(parent: string): Promise<string> {
  await fsp.mkdir(parent, { recursive: true });
  await sweepLeftovers(parent);
  const dir = path.join(parent, processTag());
  await fsp.mkdir(dir, { recursive: true });
  return dir;
}
