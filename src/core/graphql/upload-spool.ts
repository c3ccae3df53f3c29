import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { WriteStream } from 'graphql-upload-ts';
import { AppError } from '../errors';

/** The failure of an upload whose request broke off before the file was whole. */
export const cutOff = (): AppError =>
  new AppError('BAD_REQUEST', 'The request was cut off during the upload');

/** Bytes read from the spool at a time: a read waits until this much more has been written. */
const SPOOL_READ_BYTES = 1024 * 1024;

/** Bytes the spool may buffer ahead of its file writes, written together (`_writev`). */
const SPOOL_WRITE_BYTES = 4 * 1024 * 1024;

/**
 * What the reader needs of graphql-upload's spool: fs-capacitor's WriteStream as bundled in the
 * pinned graphql-upload-ts 2.2.0 (`test/integration/files.test.ts` checks these still hold).
 */
interface Spool {
  /** the spool file's descriptor, once it is open */
  _fd: number | null;
  /** bytes written to the spool so far */
  _pos: number;
  _write(chunk: Buffer, encoding: string, done: (err?: Error | null) => void): void;
  _writev?: (chunks: { chunk: Buffer }[], done: (err?: Error | null) => void) => void;
  _writableState: { highWaterMark: number };
}

/**
 * Lets the spool take the request's pieces in 4 MiB batches. graphql-upload makes it with the
 * default 16 KiB buffer and one `fs.write` per piece of the request (about 64 KiB), each
 * waiting for the last: 1 GiB took 7 s to spool on a loaded 2-core machine, against 3 s for a
 * plain copy. With room for 4 MiB and the pieces written together, it takes about as long as
 * the copy. Applied when the resolver receives the upload; the first pieces went the slow way.
 */
export function widenSpool(capacitor: WriteStream): void {
  const spool = capacitor as unknown as Spool;
  spool._writableState.highWaterMark = SPOOL_WRITE_BYTES;
  spool._writev = (chunks, done) => {
    spool._write(Buffer.concat(chunks.map((c) => c.chunk)), 'buffer', done);
  };
}

const read = (fd: number, length: number, position: number) =>
  new Promise<Buffer>((resolve, reject) => {
    const buf = Buffer.allocUnsafe(length);
    fs.read(fd, buf, 0, length, position, (err, n) => {
      if (err) reject(err);
      else resolve(n === length ? buf : buf.subarray(0, n));
    });
  });

/**
 * The bytes of a GraphQL upload while graphql-upload's spool writes them to a temporary file. The
 * reader follows the writer a megabyte behind: it reads only when at least `SPOOL_READ_BYTES`
 * more have been written (or the spool is complete), from the page cache, so the store is
 * written while the request arrives instead of after it. (graphql-upload's own reader reads
 * whatever has been written each time the writer writes: 16 KiB at a time in lockstep with the
 * request, three to four times slower than a plain copy; waiting for the whole spool first
 * makes receiving and storing take turns, twice the time of a copy.) A request cut off, or a
 * spool dropped at a size limit, fails the stream: the upload fails and nothing is kept.
 * Memory stays bounded: the bytes wait on disk (or in the page cache), not in the process, apart
 * from the spool's 4 MiB write batch (`widenSpool`).
 */
export function followSpool(capacitor: WriteStream): Readable {
  const spool = capacitor as unknown as Spool;
  widenSpool(capacitor);
  let failure: Error | null = null;
  // a read stream of the spool's own keeps it (and its descriptor) alive while this one reads;
  // it cannot be made once the spool is gone (the request was cut off before we got here)
  let keepAlive: Readable | null = null;
  try {
    keepAlive = capacitor.createReadStream();
  } catch (err) {
    failure = err instanceof Error ? err : new Error(String(err));
  }
  let wake: (() => void) | null = null;
  const poke = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const fail = (err?: Error) => {
    failure ??= err ?? cutOff();
    poke();
  };
  capacitor.on('write', poke);
  capacitor.on('finish', poke);
  capacitor.on('ready', poke);
  capacitor.on('error', fail);
  capacitor.on('close', () => {
    if (!capacitor.writableFinished) fail();
  });
  keepAlive?.on('error', fail);

  async function* chunks(): AsyncGenerator<Buffer> {
    let pos = 0;
    try {
      for (;;) {
        if (failure) throw failure;
        const done = capacitor.writableFinished;
        const fd = spool._fd;
        const ahead = spool._pos - pos;
        if (fd !== null && (ahead >= SPOOL_READ_BYTES || (done && ahead > 0))) {
          const chunk = await read(fd, Math.min(ahead, SPOOL_READ_BYTES), pos);
          pos += chunk.length;
          yield chunk;
          continue;
        }
        if (done && fd !== null) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    } catch (err) {
      // a read of a spool dropped meanwhile fails on its closed file: the drop's cause is the news
      throw failure ?? err;
    } finally {
      capacitor.off('write', poke);
      capacitor.off('finish', poke);
      capacitor.off('ready', poke);
      keepAlive?.destroy();
    }
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: SPOOL_READ_BYTES });
}
