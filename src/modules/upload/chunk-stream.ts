import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import { finished } from 'node:stream/promises';
import { AppError, validationError } from '../../core/errors';
import type { OffThreadDigest } from '../../core/storage/digest-thread';

/**
 * The new bytes of a chunk: drops the first `skip` bytes (a resent overlap the session already
 * has), passes exactly `wanted` bytes on while feeding them to the running digest, and fails if
 * the body ends short (the client went away or lied in Content-Range) or runs long.
 */
export class ChunkSlice extends Transform {
  private seen = 0;

  constructor(
    private readonly skip: number,
    private readonly wanted: number,
    private readonly digest: Pick<OffThreadDigest, 'update'>,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const from = Math.max(0, this.skip - this.seen);
    this.seen += chunk.length;
    if (this.seen > this.skip + this.wanted) {
      done(validationError('Content-Range', 'the body is longer than the range'));
      return;
    }
    const part = from > 0 ? chunk.subarray(from) : chunk;
    if (!part.length) {
      done();
      return;
    }
    this.digest.update(part).then(() => {
      done(null, part);
    }, done);
  }

  override _flush(done: TransformCallback): void {
    if (this.seen < this.skip + this.wanted)
      done(validationError('Content-Range', 'the body ended before the range did'));
    else done();
  }
}

/**
 * Feeds a request body into `slice`, settling once the slice has taken it all (or failed).
 * Unlike `pipeline`, a failing slice leaves the body alive and has the rest of it read away, so
 * the client gets its 4xx instead of a reset connection; a body that breaks off (the client
 * gone, also before this was called) fails the slice with a client error.
 */
export function feed(body: Readable, slice: ChunkSlice): Promise<void> {
  finished(body).catch(() => {
    slice.destroy(new AppError('BAD_REQUEST', 'The chunk was cut off: ask for the status and resume'));
  });
  slice.once('error', () => {
    body.unpipe(slice);
    body.resume();
  });
  body.pipe(slice);
  return finished(slice, { readable: false });
}

/** Reads a (small) stream into memory. */
export async function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** `head` followed by everything `rest` yields, as one stream (errors of `rest` carry over). */
export function prepend(head: Buffer, rest: Readable): Readable {
  const out = new PassThrough();
  out.write(head);
  rest.on('error', (err) => out.destroy(err));
  rest.pipe(out);
  return out;
}
