import { validationError } from '../../core/errors';
import { findIngestor, ingestorNames } from '../../ingestors/registry';

const MAX_BYTES = 255;

/**
 * Only the file name is stored (spec 1.8): directory parts, in either separator style, are
 * stripped; what remains must be a real name (not empty, `.` or `..`, no control characters,
 * at most 255 bytes of UTF-8). `field` names the input in errors.
 */
export function cleanFilename(raw: unknown, field = 'filename'): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw validationError(field, 'is required');
  const base = (raw.split(/[/\\]/).pop() ?? '').trim(); // split always yields one part
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

/** An ingestor name as requested, before it is looked up (see `ingestorName`). */
export function cleanIngestor(raw: unknown, field = 'ingestor'): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string' || !INGESTOR.test(raw)) {
    throw validationError(field, 'must be an ingestor name (letters, digits, _ . -)');
  }
  return raw;
}

/** The canonical name of a requested ingestor, null when none was asked for; unknown: 422. */
export function ingestorName(raw: unknown, field = 'ingestor'): string | null {
  const name = cleanIngestor(raw, field);
  if (name === null) return null;
  const ingestor = findIngestor(name);
  if (!ingestor) {
    throw validationError(
      field,
      `unknown ingestor "${name}"; the ingestors are ${ingestorNames().join(', ')}`,
    );
  }
  return ingestor.name;
}

const MEDIA_TYPE = /^[\w.+-]{1,100}\/[\w.+-]{1,100}(?:\s*;.{0,100})?$/;

/** The media type a client declared, or application/octet-stream when it is absent or odd. */
export function cleanContentType(raw: unknown): string {
  return typeof raw === 'string' && MEDIA_TYPE.test(raw.trim())
    ? raw.trim().toLowerCase()
    : 'application/octet-stream';
}
