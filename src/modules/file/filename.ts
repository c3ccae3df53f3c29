import { validationError } from '../../core/errors';

const MAX_BYTES = 255;

/**
 * Only the file name is stored (spec 1.8): directory parts, in either separator style, are
 * stripped; what remains must be a real name (not empty, `.` or `..`, no control characters,
 * at most 255 bytes of UTF-8). `field` names the input in errors.
 */
export function cleanFilename(raw: unknown, field = 'filename'): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw validationError(field, 'is required');
  const base = raw.split(/[/\\]/).pop()!.trim();
  if (base === '' || base === '.' || base === '..') {
    throw validationError(field, 'must name a file, not a directory');
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(base)) throw validationError(field, 'must not contain control characters');
  if (Buffer.byteLength(base, 'utf8') > MAX_BYTES) {
    throw validationError(field, `must be at most ${MAX_BYTES} bytes long`);
  }
  return base.normalize('NFC');
}

const INGESTOR = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/;

/** An ingestor name as requested (checked against the registry by the ingestion service). */
export function cleanIngestor(raw: unknown, field = 'ingestor'): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string' || !INGESTOR.test(raw)) {
    throw validationError(field, 'must be an ingestor name (letters, digits, _ . -)');
  }
  return raw;
}

const MEDIA_TYPE = /^[\w.+-]{1,100}\/[\w.+-]{1,100}(?:\s*;.{0,100})?$/;

/** The media type a client declared, or application/octet-stream when it is absent or odd. */
export function cleanContentType(raw: unknown): string {
  return typeof raw === 'string' && MEDIA_TYPE.test(raw.trim())
    ? raw.trim().toLowerCase()
    : 'application/octet-stream';
}
