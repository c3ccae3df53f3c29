import fs from 'node:fs';
import net from 'node:net';

/** A loopback TCP port free at the time of asking (benchmarks and end-to-end tests). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => {
        resolve(port);
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
