import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline as pipe, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ObjectStore } from '../core/storage/object-store';
import type { Source } from './ingestor';

/** Told how far reading a file has got: the most bytes any one pass has read, and the size. */
export type ProgressListener = (read: number, total: number) => void;

const HEAD_BYTES = 64 * 1024;

export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
}

async function collect(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const take = chunk.subarray(0, Math.max(0, limit - total));
    chunks.push(take);
    total += take.length;
    if (total >= limit) break;
  }
  stream.destroy();
  return Buffer.concat(chunks);
}

/** The shared part of sources: memoised values, released by `dispose`. */
abstract class BaseSource implements Source {
  readonly extension: string;
  private readonly memos = new Map<
    string,
    { value: Promise<unknown>; dispose?: (v: never) => Promise<void> }
  >();
  private headBytes: Promise<Buffer> | null = null;
  private progressListener: ProgressListener | null = null;
  private furthest = 0;

  constructor(
    readonly filename: string,
    readonly size: number,
  ) {
    this.extension = extensionOf(filename);
  }

  /** The contents from the start, as the subclass reads them. */
  protected abstract open(): Promise<Readable>;
  abstract path(): Promise<string>;

  /**
   * Reports the bytes read by every full pass over the file (`stream`, `bytes`, the spooling of
   * `path`) to `listener`: the furthest any pass got, so it never goes back. `head` is not counted.
   */
  onProgress(listener: ProgressListener | null): void {
    this.progressListener = listener;
  }

  async stream(): Promise<Readable> {
    const source = await this.open();
    if (!this.progressListener) return source;
    let read = 0;
    const counter = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        read += chunk.length;
        if (read > this.furthest) {
          this.furthest = read;
          this.progressListener?.(read, this.size);
        }
        done(null, chunk);
      },
    });
    // errors of either side reach the other; a reader stopping early closes the source
    return pipe(source, counter, () => undefined);
  }
  head(): Promise<Buffer> {
    this.headBytes ??=
      this.size === 0
        ? Promise.resolve(Buffer.alloc(0))
        : this.streamHead(Math.min(HEAD_BYTES, this.size)).then((s) => collect(s, HEAD_BYTES));
    return this.headBytes;
  }

  /** A stream of at least the first `bytes` bytes. */
  protected streamHead(_bytes: number): Promise<Readable> {
    return this.open();
  }

  async bytes(limit: number): Promise<Buffer> {
    if (this.size > limit) {
      throw new Error(
        `${this.filename} is ${this.size} bytes; this ingestor reads files of up to ${limit} bytes`,
      );
    }
    return collect(await this.stream(), this.size);
  }

  memo<T>(key: string, create: () => Promise<T>, dispose?: (value: T) => Promise<void>): Promise<T> {
    let entry = this.memos.get(key);
    if (!entry) {
      entry = { value: create(), dispose: dispose as (v: never) => Promise<void> };
      this.memos.set(key, entry);
    }
    return entry.value as Promise<T>;
  }

  /** Releases memoised values (open files, threads) and temporary files. */
  async dispose(): Promise<void> {
    for (const { value, dispose } of this.memos.values()) {
      if (!dispose) continue;
      await value.then((v) => dispose(v as never)).catch(() => undefined);
    }
    this.memos.clear();
  }
}

/** A file held in the object store; spooled to `tmpDir` when a parser needs a path. */
export class StoredSource extends BaseSource {
  private spooled: Promise<string> | null = null;

  constructor(
    private readonly store: ObjectStore,
    private readonly key: string,
    filename: string,
    size: number,
    private readonly tmpDir: string,
  ) {
    super(filename, size);
  }

  protected async open(): Promise<Readable> {
    const object = await this.store.get(this.key);
    if (!object) throw new Error(`the object of ${this.filename} is missing from the store`);
    return object.body;
  }

  protected override async streamHead(bytes: number): Promise<Readable> {
    const object = await this.store.get(this.key, { start: 0, end: bytes - 1 });
    if (!object) throw new Error(`the object of ${this.filename} is missing from the store`);
    return object.body;
  }

  path(): Promise<string> {
    this.spooled ??= (async () => {
      await fsp.mkdir(this.tmpDir, { recursive: true });
      // keep the extension: some parsers go by it
      const file = path.join(this.tmpDir, `${randomUUID()}${this.extension ? `.${this.extension}` : ''}`);
      try {
        await pipeline(await this.stream(), fs.createWriteStream(file, { flags: 'wx' }));
      } catch (err) {
        await fsp.rm(file, { force: true });
        throw err;
      }
      return file;
    })();
    return this.spooled;
  }

  override async dispose(): Promise<void> {
    await super.dispose();
    if (this.spooled) await this.spooled.then((f) => fsp.rm(f, { force: true })).catch(() => undefined);
    this.spooled = null;
  }
}

/** A file on local disk (the command line, tests and benchmarks). */
export class LocalSource extends BaseSource {
  constructor(
    private readonly file: string,
    filename = path.basename(file),
  ) {
    super(filename, fs.statSync(file).size);
  }

  protected open(): Promise<Readable> {
    return Promise.resolve(fs.createReadStream(this.file));
  }

  path(): Promise<string> {
    return Promise.resolve(this.file);
  }
}
