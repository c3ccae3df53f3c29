import { Worker } from 'node:worker_threads';
/** The saved state of a digest, small enough to keep in a database row between chunks. */
export interface DigestState {
  sha256: Buffer;
  crc32c: Buffer;
}

/** Uploads whose native SHA-256 state a process keeps between chunks (least recently used go). */
const KEPT_UPLOADS = 256;

/**
 * The worker's code, plain JavaScript so it runs the same from `dist` and under jest. A job
 * hashes one chunk's bytes in one of two ways:
 *
 * - *saved*: SHA-256 and CRC32C (Castagnoli, as Google's resumable protocol reports it) from
 *   hash-wasm, whose state, unlike that of Node's hashes, can be saved to the session row and
 *   loaded again anywhere;
 * - *kept*: Node's native SHA-256 (about ten times faster than WebAssembly where the CPU has
 *   SHA instructions) and hash-wasm's CRC32C, kept in this thread between the chunks of an
 *   upload (`kept`, keyed by upload, valid only at the byte offset it reached). A chunk that
 *   starts elsewhere, or after a restart, finds nothing here and the caller rebuilds.
 *
 * Messages of a job are handled in order. Update batches go back to the main thread with their
 * acknowledgement, so the same few buffers carry every byte.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { createSHA256, createCRC32 } = require(workerData.hashWasm);
const jobs = new Map();
const kept = new Map();
async function begin(m) {
  const crc = await createCRC32(0x82f63b78);
  if (m.upload !== null) {
    if (m.at === 0) { crc.init(); return { sha: createHash('sha256'), crc, upload: m.upload }; }
    const entry = kept.get(m.upload);
    if (!entry || entry.at !== m.at) return null;
    crc.load(entry.crc);
    return { sha: entry.sha.copy(), crc, upload: m.upload };
  }
  const sha = await createSHA256();
  if (m.state) { sha.load(m.state.sha256); crc.load(m.state.crc32c); } else { sha.init(); crc.init(); }
  return { sha, crc, upload: null };
}
parentPort.on('message', (m) => {
  if (m.op === 'start') {
    const job = begin(m);
    jobs.set(m.id, job);
    job.then((h) => {
      if (!h) jobs.delete(m.id);
      parentPort.postMessage({ id: m.id, seq: m.seq, result: h !== null });
    }, (err) => parentPort.postMessage({ id: m.id, seq: m.seq, error: String(err) }));
    return;
  }
  const job = jobs.get(m.id);
  if (!job) return;
  job.then((h) => {
    if (m.op === 'update') {
      const bytes = new Uint8Array(m.buf, 0, m.length);
      h.sha.update(bytes); h.crc.update(bytes);
      parentPort.postMessage({ id: m.id, seq: m.seq, buf: m.buf }, [m.buf]);
    } else if (m.op === 'save') {
      jobs.delete(m.id);
      if (h.upload === null) {
        parentPort.postMessage({ id: m.id, seq: m.seq, result: { sha256: h.sha.save(), crc32c: h.crc.save() } });
        return;
      }
      kept.delete(h.upload);
      kept.set(h.upload, { at: m.at, sha: h.sha, crc: h.crc.save() });
      while (kept.size > workerData.keptUploads) kept.delete(kept.keys().next().value);
      parentPort.postMessage({ id: m.id, seq: m.seq, result: null });
    } else if (m.op === 'finish') {
      jobs.delete(m.id);
      if (h.upload !== null) kept.delete(h.upload);
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
/** Batch buffers kept for reuse once the worker hands them back. */
const POOL = MAX_IN_FLIGHT + 2;

interface Reply {
  id: number;
  seq: number;
  result?: unknown;
  error?: string;
  buf?: ArrayBuffer;
}

let worker: Worker | null = null;
const waiting = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
const pool: ArrayBuffer[] = [];
let nextJob = 1;

function thread(): Worker {
  if (!worker) {
    // resolved here: an eval'd worker would resolve modules from the working directory
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { hashWasm: require.resolve('hash-wasm'), keptUploads: KEPT_UPLOADS },
    });
    worker.unref();
    worker.on('message', (r: Reply) => {
      if (r.buf && pool.length < POOL) pool.push(r.buf);
      const w = waiting.get(`${r.id}:${r.seq}`);
      waiting.delete(`${r.id}:${r.seq}`);
      if (r.error) w?.reject(new Error(r.error));
      else w?.resolve(r.result);
    });
    worker.on('error', (err: Error) => {
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

/**
 * Ends the worker thread (it starts again on demand, without the states it kept); called when
 * the application closes.
 */
export async function stopDigestThread(): Promise<void> {
  const w = worker;
  worker = null;
  await w?.terminate();
}

const batchBuffer = (): Buffer => Buffer.from(pool.pop() ?? new ArrayBuffer(BATCH));
const reuse = (batch: Buffer): void => {
  if (pool.length < POOL) pool.push(batch.buffer as ArrayBuffer);
};

/**
 * SHA-256 and CRC32C over a byte stream that arrives in pieces, possibly on different servers,
 * computed on a worker thread so hashing overlaps with receiving and storing the bytes instead
 * of taking turns with them on the request thread. Two kinds (see WORKER_SOURCE):
 * `start(state)` saves its state after each piece for the session row (`save` returns it);
 * `resume(upload, at)` keeps a native state in this process (`save` returns null) and is
 * null when this process does not hold the upload's state at byte `at`. Bytes are copied into
 * 1 MiB batches and `update` waits while too many batches are queued, so memory stays bounded.
 * `finish` gives the hex SHA-256 and the base64 of the big-endian CRC32C.
 */
export class OffThreadDigest {
  private readonly id = nextJob++;
  private seq = 0;
  private batch = batchBuffer();
  private used = 0;
  private bytes = 0;
  private inFlight: Promise<unknown>[] = [];
  /** set once `save` or `finish` ran: the batch went back to the pool */
  private closed = false;

  private constructor(private readonly at: number) {}

  /** A digest whose state goes to the caller (`save`), from `state` or from the start. */
  static start(state?: DigestState | null): OffThreadDigest {
    const d = new OffThreadDigest(0);
    void d.request('start', { upload: null, state: state ?? null }).catch(() => undefined);
    return d;
  }

  /**
   * A digest kept in this process for `upload` at byte `at` (0: a new one), or null when this
   * process does not hold it (another server took the previous chunk, or this one restarted).
   */
  static async resume(upload: string, at: number): Promise<OffThreadDigest | null> {
    const d = new OffThreadDigest(at);
    if (await d.request('start', { upload, at, state: null })) return d;
    reuse(d.batch);
    return null;
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
    // the batch's memory moves to the worker (no copy) and comes back to the pool with the ack
    const buf = this.batch.buffer as ArrayBuffer;
    const ack = this.request('update', { buf, length: this.used }, [buf]);
    ack.catch(() => undefined); // a failure surfaces where the batch is awaited
    this.inFlight.push(ack);
    this.batch = batchBuffer();
    this.used = 0;
  }

  async update(chunk: Uint8Array): Promise<void> {
    if (this.closed) throw new Error('the digest was already saved or finished');
    this.bytes += chunk.length;
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

  /** The state after the bytes so far: to keep in the session row, or null when kept here. */
  async save(): Promise<DigestState | null> {
    this.flush();
    await Promise.all(this.inFlight);
    const r = (await this.request('save', { at: this.at + this.bytes })) as {
      sha256: Uint8Array;
      crc32c: Uint8Array;
    } | null;
    this.close();
    return r && { sha256: Buffer.from(r.sha256), crc32c: Buffer.from(r.crc32c) };
  }

  async finish(): Promise<{ sha256: string; crc32c: string }> {
    this.flush();
    await Promise.all(this.inFlight);
    const r = (await this.request('finish')) as { sha256: string; crc32c: string };
    this.close();
    return r;
  }

  private close(): void {
    this.closed = true;
    reuse(this.batch);
  }

  /** Forgets the job (the chunk failed: its state is not kept; a kept one stays where it was). */
  drop(): void {
    // the batch is not reused: a stream that failed may still be handing bytes to `update`
    thread().postMessage({ op: 'drop', id: this.id });
  }
}
