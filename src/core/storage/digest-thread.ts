import { Worker } from 'node:worker_threads';
/** The saved state of a digest, small enough to keep in a database row between chunks. */
export interface DigestState {
  sha256: Buffer;
  crc32c: Buffer;
}

/**
 * The worker's code, plain JavaScript so it runs the same from `dist` and under jest. Per job it
 * keeps a SHA-256 and a CRC32C (Castagnoli, as Google's resumable protocol reports it) from
 * hash-wasm, whose state, unlike that of Node's hashes, can be saved and loaded again; it
 * handles each job's messages in order.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createSHA256, createCRC32 } = require(workerData.hashWasm);
const jobs = new Map();
async function begin(state) {
  const [sha, crc] = await Promise.all([createSHA256(), createCRC32(0x82f63b78)]);
  if (state) { sha.load(state.sha256); crc.load(state.crc32c); } else { sha.init(); crc.init(); }
  return { sha, crc };
}
parentPort.on('message', (m) => {
  if (m.op === 'start') { jobs.set(m.id, begin(m.state)); return; }
  const job = jobs.get(m.id);
  if (!job) return;
  job.then((h) => {
    if (m.op === 'update') {
      const bytes = new Uint8Array(m.buf, 0, m.length);
      h.sha.update(bytes); h.crc.update(bytes);
      parentPort.postMessage({ id: m.id, seq: m.seq });
    } else if (m.op === 'save') {
      jobs.delete(m.id);
      parentPort.postMessage({ id: m.id, seq: m.seq, result: { sha256: h.sha.save(), crc32c: h.crc.save() } });
    } else if (m.op === 'finish') {
      jobs.delete(m.id);
      const crc = Buffer.from(h.crc.digest('binary')).toString('base64');
      parentPort.postMessage({ id: m.id, seq: m.seq, result: { sha256: h.sha.digest('hex'), crc32c: crc } });
    } else if (m.op === 'drop') {
      jobs.delete(m.id);
    }
  }, (err) => parentPort.postMessage({ id: m.id, seq: m.seq, error: String(err) }));
});
`;

/** Bytes are handed to the worker in batches of this size, at most MAX_IN_FLIGHT batches ahead. */
const BATCH = 1024 * 1024;
const MAX_IN_FLIGHT = 4;

interface Reply {
  id: number;
  seq: number;
  result?: unknown;
  error?: string;
}

let worker: Worker | null = null;
const waiting = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
let nextJob = 1;

function thread(): Worker {
  if (!worker) {
    // resolved here: an eval'd worker would resolve modules from the working directory
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { hashWasm: require.resolve('hash-wasm') },
    });
    worker.unref();
    worker.on('message', (r: Reply) => {
      const w = waiting.get(`${r.id}:${r.seq}`);
      waiting.delete(`${r.id}:${r.seq}`);
      if (r.error) w?.reject(new Error(r.error));
      else w?.resolve(r.result);
    });
    worker.on('error', (err) => {
      for (const w of waiting.values()) w.reject(err);
      waiting.clear();
      worker = null;
    });
  }
  return worker;
}

/** Starts the worker thread ahead of the first upload (it costs about 20 MiB once). */
export function startDigestThread(): void {
  thread();
}

/** Ends the worker thread (it starts again on demand); called when the application closes. */
export async function stopDigestThread(): Promise<void> {
  const w = worker;
  worker = null;
  await w?.terminate();
}

/**
 * SHA-256 and CRC32C over a byte stream that arrives in pieces, possibly on different servers:
 * the running state is saved after each piece and loaded before the next. Computed on a worker
 * thread, so hashing overlaps with receiving and storing the bytes instead of taking turns with
 * them on the request thread. Bytes are copied into 1 MiB batches and `update` waits while too
 * many batches are queued, so memory stays bounded. `finish` gives the hex SHA-256 and the
 * base64 of the big-endian CRC32C.
 */
export class OffThreadDigest {
  private readonly id = nextJob++;
  private seq = 0;
  private batch = Buffer.allocUnsafeSlow(BATCH);
  private used = 0;
  private inFlight: Promise<unknown>[] = [];

  private constructor() {}

  static start(state?: DigestState | null): OffThreadDigest {
    const d = new OffThreadDigest();
    thread().postMessage({ op: 'start', id: d.id, state: state ?? null });
    return d;
  }

  private request(
    op: string,
    extra: Record<string, unknown> = {},
    transfer: ArrayBuffer[] = [],
  ): Promise<unknown> {
    const seq = ++this.seq;
    const done = new Promise((resolve, reject) => waiting.set(`${this.id}:${seq}`, { resolve, reject }));
    thread().postMessage({ op, id: this.id, seq, ...extra }, transfer);
    return done;
  }

  private flush(): void {
    if (this.used === 0) return;
    // the batch's memory moves to the worker (no copy); a fresh one takes its place
    const buf = this.batch.buffer;
    const ack = this.request('update', { buf, length: this.used }, [buf]);
    ack.catch(() => undefined); // a failure surfaces where the batch is awaited
    this.inFlight.push(ack);
    this.batch = Buffer.allocUnsafeSlow(BATCH);
    this.used = 0;
  }

  async update(chunk: Uint8Array): Promise<void> {
    let offset = 0;
    while (offset < chunk.length) {
      const n = Math.min(chunk.length - offset, BATCH - this.used);
      this.batch.set(chunk.subarray(offset, offset + n), this.used);
      this.used += n;
      offset += n;
      if (this.used === BATCH) this.flush();
    }
    while (this.inFlight.length > MAX_IN_FLIGHT) await this.inFlight.shift();
  }

  async save(): Promise<DigestState> {
    this.flush();
    await Promise.all(this.inFlight);
    const r = (await this.request('save')) as { sha256: Uint8Array; crc32c: Uint8Array };
    return { sha256: Buffer.from(r.sha256), crc32c: Buffer.from(r.crc32c) };
  }

  async finish(): Promise<{ sha256: string; crc32c: string }> {
    this.flush();
    await Promise.all(this.inFlight);
    return (await this.request('finish')) as { sha256: string; crc32c: string };
  }

  /** Forgets the job (the chunk failed: its state is not kept). */
  drop(): void {
    thread().postMessage({ op: 'drop', id: this.id });
  }
}
