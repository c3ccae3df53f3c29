const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * Object keys are `/`-separated segments of letters, digits, `.`, `_` and `-`, none starting
 * with a dot: the service makes them (`{dataset}/{file}`), so anything else is a bug, and no
 * key can climb out of a store's directory or collide with its working directories.
 */
export function assertKey(key: string): string {
  const segments = key.split('/');
  if (segments.length > 8 || !segments.every((s) => SEGMENT.test(s))) {
    throw new Error(`invalid object key: ${JSON.stringify(key)}`);
  }
  return key;
}

/** A Content-Disposition value offering `filename` (ASCII fallback plus RFC 5987 UTF-8). */
export function attachmentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
