import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
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
      done(new Error('the body is longer than its Content-Range'));
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
    if (this.seen < this.skip + this.wanted) done(new Error('the body ended before its Content-Range did'));
    else done();
  }
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
