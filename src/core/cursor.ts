/**
 * Opaque page cursors: a tag naming the kind of cursor (`o:` an offset, `g:` a graph node, `f:` a
 * facet bucket...) and its body, base64url. Opaque to clients, not secret: each reader checks
 * every part of what it decodes and answers 422 for anything it did not issue, so a changed
 * cursor can only move where a page starts within the caller's own results.
 */
export function encodeCursor(tag: string, body: string): string {
  return Buffer.from(`${tag}:${body}`, 'utf8').toString('base64url');
}

/** The body of a cursor with `tag`, or null for anything else (another tag, longer than `maxLength`). */
export function cursorBody(tag: string, cursor: string, maxLength = 20_000): string | null {
  if (cursor.length > maxLength) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  // only the exact text issued: base64 decoding skips stray characters and trailing bits, so
  // `cursor + 'x'` could otherwise read as the cursor itself
  if (Buffer.from(text, 'utf8').toString('base64url') !== cursor) return null;
  return text.startsWith(`${tag}:`) ? text.slice(tag.length + 1) : null;
}

/** A cursor whose body is a JSON array (a sort key: the order it was issued for and the last row's values). */
export function encodeKeyCursor(tag: string, key: readonly unknown[]): string {
  return encodeCursor(tag, JSON.stringify(key));
}

/** The JSON array of a cursor made by {@link encodeKeyCursor} with `tag`, or null for anything else. */
export function cursorKey(tag: string, cursor: string, maxLength = 20_000): unknown[] | null {
  const body = cursorBody(tag, cursor, maxLength);
  if (body === null) return null;
  try {
    const key: unknown = JSON.parse(body);
    return Array.isArray(key) ? key : null;
  } catch {
    return null;
  }
}
