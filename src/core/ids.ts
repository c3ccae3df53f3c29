import { randomBytes } from 'node:crypto';

/**
 * MFIDs: the 16 bytes of a time-ordered UUID (version 7, in the layout of the Python `uuid7`
 * package the legacy tooling uses), base32-encoded byte-aligned (RFC 4648, no padding, 26
 * characters) and mapped one to one onto the lowercase Crockford alphabet.
 *
 * UUID layout, most significant bit first: 36 bits of Unix seconds, 12 bits of the second's
 * fraction, the version nibble 7, 12 more bits of fraction, the variant `10`, a 14-bit counter
 * that increments while the clock has not advanced, and 48 random bits. String order is
 * therefore creation order, and the first 13 characters hold the timestamp.
 */
const RFC4648 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

export const MFID_PATTERN = /^[0-9a-hjkmnp-tv-z]{25}[048cgmrw]$/;
export const ORCID_PATTERN = /^\d{4}-\d{4}-\d{4}-\d{3}[0-9X]$/;

let lastTick = -1n; // (seconds << 24) | fraction, in 1/2^24 s units
let counter = 0;

function nowTicks(): bigint {
  // performance.timeOrigin + now() has sub-millisecond resolution
  const ms = performance.timeOrigin + performance.now();
  return BigInt(Math.floor((ms / 1000) * 2 ** 24));
}

/** Encodes 16 bytes as a 26-character MFID string. */
export function encodeMfid(bytes: Uint8Array): string {
  if (bytes.length !== 16) throw new Error('an MFID encodes exactly 16 bytes');
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += CROCKFORD[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += CROCKFORD[(buffer << (5 - bits)) & 31];
  return out;
}

/** Decodes an MFID back to its 16 bytes; throws on malformed input. */
export function decodeMfid(mfid: string): Uint8Array {
  if (!isMfid(mfid)) throw new Error(`not an MFID: ${mfid}`);
  const bytes = new Uint8Array(16);
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const ch of mfid) {
    buffer = (buffer << 5) | CROCKFORD.indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      if (index < 16) bytes[index++] = (buffer >>> (bits - 8)) & 0xff;
      bits -= 8;
      buffer &= (1 << bits) - 1;
    }
  }
  return bytes;
}

/** Creates a new MFID. Monotonic within the process: later calls sort after earlier ones. */
export function newMfid(): string {
  let tick = nowTicks();
  if (tick <= lastTick) {
    tick = lastTick;
    counter += 1;
    if (counter > 0x3fff) {
      tick += 1n;
      counter = 0;
    }
  } else {
    counter = 0;
  }
  lastTick = tick;
  const seconds = tick >> 24n;
  const fraction = Number(tick & 0xffffffn);
  const bytes = new Uint8Array(16);
  // 36 bits of seconds
  bytes[0] = Number((seconds >> 28n) & 0xffn);
  bytes[1] = Number((seconds >> 20n) & 0xffn);
  bytes[2] = Number((seconds >> 12n) & 0xffn);
  bytes[3] = Number((seconds >> 4n) & 0xffn);
  const fracHigh = fraction >>> 12; // 12 bits
  const fracLow = fraction & 0xfff; // 12 bits
  bytes[4] = (Number(seconds & 0xfn) << 4) | (fracHigh >>> 8);
  bytes[5] = fracHigh & 0xff;
  bytes[6] = 0x70 | (fracLow >>> 8);
  bytes[7] = fracLow & 0xff;
  bytes[8] = 0x80 | ((counter >>> 8) & 0x3f);
  bytes[9] = counter & 0xff;
  bytes.set(randomBytes(6), 10);
  return encodeMfid(bytes);
}

export function isMfid(value: unknown): boolean {
  return typeof value === 'string' && MFID_PATTERN.test(value);
}

export function isOrcid(value: unknown): boolean {
  return typeof value === 'string' && ORCID_PATTERN.test(value);
}

/** The creation time encoded in an MFID made by {@link newMfid} (or the Python `mfid` package). */
export function mfidTime(mfid: string): Date {
  const b = decodeMfid(mfid);
  const seconds =
    (BigInt(b[0]) << 28n) |
    (BigInt(b[1]) << 20n) |
    (BigInt(b[2]) << 12n) |
    (BigInt(b[3]) << 4n) |
    BigInt(b[4] >>> 4);
  const fraction = (((b[4] & 0xf) << 8) | b[5]) * 4096 + (((b[6] & 0xf) << 8) | b[7]);
  return new Date(Number(seconds) * 1000 + Math.floor((fraction / 2 ** 24) * 1000));
}

/** The RFC 4648 base32 alphabet, exported for tests that cross-check the mapping. */
export const RFC4648_ALPHABET = RFC4648;
