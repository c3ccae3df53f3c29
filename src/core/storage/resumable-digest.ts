import { createCRC32, createSHA256, type IHasher } from 'hash-wasm';

/** CRC32C (Castagnoli), the checksum Google's resumable protocol reports, reflected polynomial. */
const CASTAGNOLI = 0x82f63b78;

/** The saved state of a {@link ResumableDigest}, small enough to keep in a database row. */
export interface DigestState {
  sha256: Buffer;
  crc32c: Buffer;
}

/**
 * SHA-256 and CRC32C over a byte stream that arrives in pieces, possibly on different servers:
 * the running state is exported after each piece and imported before the next one. (Node's own
 * hashes cannot export their state; these WebAssembly ones can.)
 */
export class ResumableDigest {
  private constructor(
    private readonly sha: IHasher,
    private readonly crc: IHasher,
  ) {}

  static async start(state?: DigestState | null): Promise<ResumableDigest> {
    const [sha, crc] = await Promise.all([createSHA256(), createCRC32(CASTAGNOLI)]);
    if (state) {
      sha.load(state.sha256);
      crc.load(state.crc32c);
    } else {
      sha.init();
      crc.init();
    }
    return new ResumableDigest(sha, crc);
  }

  update(chunk: Uint8Array): void {
    this.sha.update(chunk);
    this.crc.update(chunk);
  }

  save(): DigestState {
    return { sha256: Buffer.from(this.sha.save()), crc32c: Buffer.from(this.crc.save()) };
  }

  /** The final values: hex SHA-256, and base64 of the big-endian CRC32C (as GCS reports it). */
  finish(): { sha256: string; crc32c: string } {
    const sha256 = this.sha.digest('hex');
    const crc32c = Buffer.from(this.crc.digest('binary')).toString('base64');
    return { sha256, crc32c };
  }
}
