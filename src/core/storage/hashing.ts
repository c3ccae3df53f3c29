import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { AppError } from '../errors';

export function tooLarge(maxBytes: number): AppError {
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `The file is larger than the maximum upload size of ${maxBytes} bytes`,
  );
}

/**
 * A pass-through that counts bytes and computes their SHA-256, failing with PAYLOAD_TOO_LARGE
 * as soon as more than `maxBytes` have passed. `error` keeps the failure it raised, so callers
 * can report it even when a downstream library replaces it with its own.
 */
export class HashingMeter extends Transform {
  /** bytes that passed */
  bytes = 0;
  error: AppError | null = null;
  private readonly hash: Hash = createHash('sha256');
  private digestHex: string | null = null;

  constructor(private readonly maxBytes = Number.POSITIVE_INFINITY) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      this.error = tooLarge(this.maxBytes);
      done(this.error);
      return;
    }
    this.hash.update(chunk);
    done(null, chunk);
  }

  /** The hex SHA-256 of everything that passed; call once the stream has ended. */
  sha256(): string {
    this.digestHex ??= this.hash.digest('hex');
    return this.digestHex;
  }
}
