import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { AppError } from '../errors';

/**
 * Browser sessions (docs/authentication.md): a random secret in an `HttpOnly`, `SameSite=Lax`
 * cookie (`Secure` when the request came over https, directly or through the trusted proxy's
 * `X-Forwarded-Proto`); only its SHA-256 is stored, like an API key's.
 */
export const SESSION_COOKIE = 'catalog_session';

/** The header a page sends its CSRF token in on every write made with the session cookie. */
export const CSRF_HEADER = 'x-csrf-token';

const SECRET = /^[A-Za-z0-9_-]{43}$/;

export function generateSessionSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionSecret(secret: string): string {
  return createHash('sha256').update(`session:${secret}`, 'utf8').digest('hex');
}

/**
 * The session's CSRF token (a synchronizer token): derived from the secret, so nothing more is
 * stored, and useless without the cookie. Only a page of this origin can read it (from
 * `GET /auth/session`: no CORS response carries credentials).
 */
export function csrfTokenFor(secret: string): string {
  return createHash('sha256').update(`csrf:${secret}`, 'utf8').digest('base64url');
}

/** The session secret the request's cookie holds, when it holds a well-formed one. */
export function sessionSecretOf(req: Request): string | undefined {
  return sessionSecretOfCookie(req.get('cookie'));
}

/** The session secret of a `Cookie` header (a WebSocket upgrade has no express request). */
export function sessionSecretOfCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (SECRET.test(value)) return value;
  }
  return undefined;
}

/** Whether `given` is the session's CSRF token (compared in constant time). */
export function csrfMatches(secret: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(csrfTokenFor(secret));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Whether the session cookie may be marked `Secure`: the request came over https. */
export function isSecureRequest(req: Request): boolean {
  return req.secure;
}

/** The `Set-Cookie` value that starts a session (a browser-session cookie: the server decides its end). */
export function sessionCookie(req: Request, secret: string): string {
  return `${SESSION_COOKIE}=${secret}; Path=/; HttpOnly; SameSite=Lax${isSecureRequest(req) ? '; Secure' : ''}`;
}

/** The `Set-Cookie` value that removes the session cookie. */
export function clearedSessionCookie(req: Request): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${isSecureRequest(req) ? '; Secure' : ''}`;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** This service's own origin as the request names it (scheme from the trusted proxy, Host). */
function ownOrigin(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? ''}`;
}

/**
 * Refuses a state-changing request authenticated by the session cookie unless it carries the
 * session's CSRF token in `X-CSRF-Token` and was not sent by another site: a browser's
 * `Sec-Fetch-Site: cross-site` or an `Origin` other than this service's own (or
 * `PUBLIC_BASE_URL`'s) is refused even with the token. Reads (GET, HEAD, OPTIONS) pass: CORS keeps
 * their answers from other origins. Requests with an `Authorization` header never reach this.
 */
export function assertSameSiteWrite(req: Request, secret: string, publicBaseUrl: string): void {
  if (SAFE_METHODS.has(req.method)) return;
  assertSameOrigin(req, publicBaseUrl);
  if (!csrfMatches(secret, req.get(CSRF_HEADER) ?? '')) {
    throw new AppError(
      'FORBIDDEN',
      `A write with the session cookie needs the session's CSRF token in ${CSRF_HEADER} (GET /auth/session gives it)`,
    );
  }
}

/**
 * Refuses a request a browser says another site sent (`Sec-Fetch-Site`), or whose `Origin` is
 * not this service's: what guards sign-in forms, which have no session (and no token) yet.
 */
export function assertSameOrigin(req: Request, publicBaseUrl: string): void {
  const site = req.get('sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') {
    throw new AppError(
      'FORBIDDEN',
      'Cross-site request refused: a write with the session cookie must come from this site',
    );
  }
  const origin = req.get('origin');
  if (origin && origin !== ownOrigin(req) && origin !== new URL(publicBaseUrl).origin) {
    throw new AppError('FORBIDDEN', `Cross-site request refused: origin ${origin} is not this service`);
  }
}
