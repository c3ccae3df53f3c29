import { validationError } from '../../core/errors';

export type ChunkRange =
  | { kind: 'probe'; total: number | null }
  | { kind: 'chunk'; start: number; end: number; total: number | null };

/**
 * The `Content-Range` of a resumable PUT: `bytes a-b/total` for a chunk (end inclusive),
 * `bytes *\/total` for a status probe; `*` as the total means "not known yet". Without the
 * header the body is taken as the whole object (`Content-Length` bytes from 0).
 */
export function parseContentRange(header: string | undefined, contentLength: number | undefined): ChunkRange {
  const field = 'Content-Range';
  if (header === undefined || header.trim() === '') {
    if (!contentLength) return { kind: 'probe', total: null };
    return { kind: 'chunk', start: 0, end: contentLength - 1, total: contentLength };
  }
  const m = /^bytes (?:(\d{1,16})-(\d{1,16})|\*)\/(\d{1,16}|\*)$/.exec(header.trim());
  if (!m) throw validationError(field, 'must be "bytes <first>-<last>/<total>" or "bytes */<total>"');
  const total = m[3] === '*' ? null : Number(m[3]);
  if (total !== null && !Number.isSafeInteger(total)) {
    throw validationError(field, `byte positions must be at most ${Number.MAX_SAFE_INTEGER}`);
  }
  if ((m[1] as string | undefined) === undefined) return { kind: 'probe', total }; // `bytes */<total>`
  const start = Number(m[1]);
  const end = Number(m[2]);
  // 16 digits reach past 2^53, where the digits no longer make the number
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) {
    throw validationError(field, `byte positions must be at most ${Number.MAX_SAFE_INTEGER}`);
  }
  if (end < start) throw validationError(field, 'the last byte comes before the first');
  if (total !== null && end >= total) throw validationError(field, 'the range ends past the total size');
  return { kind: 'chunk', start, end, total };
}
