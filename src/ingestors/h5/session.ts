import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * The thread's code, plain JavaScript so that it runs the same from `dist` and under jest.
 * h5wasm is an ES module with a WebAssembly build of libhdf5 that reads the host filesystem
 * directly (NODERAWFS): a file is opened by path and read on demand, never copied whole into
 * memory. Each message names a function (sent once as source) that runs with h5wasm and a
 * state object kept between messages (the open file).
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
// libhdf5 prints its error stack to fd 2 straight through the filesystem layer: keep it here
const writeSync = fs.writeSync;
let diagnostics = '';
fs.writeSync = function (fd, data, ...rest) {
  if (fd !== 2) return writeSync.call(fs, fd, data, ...rest);
  const text = typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset + (rest[0] || 0), rest[1] ?? data.byteLength).toString();
  diagnostics = (diagnostics + text).slice(-2000);
  return typeof data === 'string' ? Buffer.byteLength(data) : (rest[1] ?? data.byteLength);
};
const functions = new Map();
const state = {};
let h5;
parentPort.on('message', async (m) => {
  try {
    if (!h5) { h5 = await import(workerData.h5wasm); await h5.ready; }
    if (m.source) functions.set(m.name, new Function('return (' + m.source + ')')());
    diagnostics = '';
    const result = functions.get(m.name)(h5, state, m.input);
    parentPort.postMessage({ seq: m.seq, result });
  } catch (err) {
    parentPort.postMessage({ seq: m.seq, error: String((err && err.message) || err), diagnostics });
  }
});
`;

/** h5wasm's entry for Node, found on disk: its package exports only an ESM `import` condition. */
function h5wasmEntry(): string {
  for (const dir of require.resolve.paths('h5wasm') ?? []) {
    const entry = path.join(dir, 'h5wasm', 'dist', 'node', 'hdf5_hl.js');
    if (fs.existsSync(entry)) return pathToFileURL(entry).href;
  }
  throw new Error('the h5wasm package is not installed');
}

let entry: string | null = null;

/**
 * A function run inside the HDF5 thread. It must be self-contained (it is sent as source text:
 * no imports, no outer variables), synchronous, and return structured-cloneable data.
 */
export type H5Function<I, O> = (h5: unknown, state: Record<string, unknown>, input: I) => O;

/**
 * One HDF5 thread, for one file. Running libhdf5 in its own thread keeps a damaged file (or an
 * abort inside the WebAssembly module) from reaching the worker, keeps the event loop free
 * while large trees are read, and returns all of the module's memory when the thread ends.
 */
export class H5Session {
  private readonly worker: Worker;
  private readonly sent = new Set<string>();
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private seq = 0;
  private diagnostics = '';
  private ended: Error | null = null;

  constructor() {
    entry ??= h5wasmEntry();
    this.worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { h5wasm: entry },
      stderr: true,
      stdout: true,
    });
    // libhdf5 prints its error stack; keep the tail for error messages, never the console
    this.worker.stderr.on('data', (d: Buffer) => {
      this.diagnostics = (this.diagnostics + d.toString()).slice(-2000);
    });
    this.worker.stdout.resume();
    this.worker.on('message', (m: { seq: number; result?: unknown; error?: string }) => {
      const w = this.waiting.get(m.seq);
      this.waiting.delete(m.seq);
      if (m.error !== undefined) w?.reject(new Error(m.error));
      else w?.resolve(m.result);
    });
    const end = (err: Error) => {
      this.ended ??= err;
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    this.worker.on('error', (err: Error) => {
      end(new Error(`the HDF5 reader failed: ${err.message}`));
    });
    this.worker.on('exit', (code) => {
      end(new Error(`the HDF5 reader stopped (exit code ${code})`));
    });
  }

  /** Runs `fn` in the thread (its name must be unique per function). */
  call<I, O>(name: string, fn: H5Function<I, O>, input: I): Promise<O> {
    if (this.ended) return Promise.reject(this.ended);
    const seq = ++this.seq;
    const source = this.sent.has(name) ? undefined : fn.toString();
    this.sent.add(name);
    return new Promise<O>((resolve, reject) => {
      this.waiting.set(seq, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ seq, name, source, input });
    });
  }

  /** The end of the error stack libhdf5 printed for the last failed call, for logs. */
  get lastDiagnostics(): string {
    return this.diagnostics;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
