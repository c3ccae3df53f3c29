import { validationError } from './errors';
import { isMfid } from './ids';

/**
 * Keyset pagination over MFIDs, newest first. A cursor is the opaque encoding of the last MFID
 * of a page; the next page holds the records whose MFID sorts before it.
 */
export function encodeCursor(uniqueId: string): string {
  return Buffer.from(`k:${uniqueId}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined | null, field = 'cursor'): string | undefined {
  if (cursor === undefined || cursor === null || cursor === '') return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const id = text.startsWith('k:') ? text.slice(2) : '';
  if (!isMfid(id)) throw validationError(field, 'is not a cursor this server issued');
  return id;
}

export interface KeysetPage<T> {
  items: T[];
  /** the cursor of the following page, or null on the last page */
  nextCursor: string | null;
  /** in a sorted page, each item's cursor by MFID (else the MFID's own cursor) */
  cursors?: Map<string, string>;
}

/** Cuts a result fetched with `limit + 1` rows into a page and its next cursor. */
export function keysetPage<T extends { uniqueId: string }>(rows: T[], limit: number): KeysetPage<T> {
  const items = rows.slice(0, limit);
  const nextCursor =
    rows.length > limit && items.length > 0 ? encodeCursor(items[items.length - 1].uniqueId) : null;
  return { items, nextCursor };
}

/**
 * A page size as the caller named it (`first` of the GraphQL searches and `links`, `limit` of the
 * REST graphs): refused naming that field below 1 or above `max`, where the service would name
 * its own parameter.
 */
export function pageSize(field: string, value: number, max?: number): number {
  if (value < 1) throw validationError(field, 'must be at least 1');
  if (max !== undefined && value > max) throw validationError(field, `must be at most ${max}`);
  return value;
}
