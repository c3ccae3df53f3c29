import { createHash, randomBytes } from 'node:crypto';

/**
 * API key secrets: `cat_` + 43 base64url characters (256 random bits). Only the SHA-256 hex
 * digest is stored; lookups hash the presented secret and compare digests in the database.
 */
export const KEY_PREFIX = 'cat_';

export function generateApiKeySecret(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A short, non-secret label for a key: enough to tell keys apart, useless to an attacker. */
export function keyDisplayPrefix(secret: string): string {
  return secret.slice(0, 10);
}

/** Reads a bearer token from an Authorization header value. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}
