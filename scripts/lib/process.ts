import fs from 'node:fs';
import net from 'node:net';

/**
 * A loopback TCP port free at the time of asking (benchmarks and end-to-end tests), for a child
 * process to listen on a moment later. Drawn at random from below the kernel's ephemeral range
 * (net.ipv4.ip_local_port_range, 32768-60999 by default): a port from inside it, as `listen(0)`
 * gives, can be taken in that moment by any outgoing connection's source port or another test's
 * `listen(0)`, and the child then fails with EADDRINUSE (seen in a loaded CI run).
 */
export async function freePort(): Promise<number> {
  const [low] = ephemeralRange();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * (low - 10_000));
    if (await listens(port)) return port;
  }
  throw new Error('no free loopback port below the ephemeral range after 50 tries');
}

function ephemeralRange(): [number, number] {
  try {
    const [a, b] = fs
      .readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (a > 11_000 && b >= a) return [a, b];
  } catch {
    // not Linux: the IANA dynamic range's start
  }
  return [49152, 65535];
}

function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => {
      resolve(false);
    });
    s.listen(port, '127.0.0.1', () => {
      s.close(() => {
        resolve(true);
      });
    });
  });
}

/** The id of a started child process (a child that failed to spawn has none). */
export function pidOf(proc: { pid?: number }): number {
  if (proc.pid === undefined) throw new Error('the process did not start');
  return proc.pid;
}

/** A memory figure of a process from /proc (Linux): current (VmRSS) or peak (VmHWM), in bytes. */
export function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** Resets the kernel's peak-RSS mark of a process (Linux: writing 5 to clear_refs). */
export function resetPeak(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}
