import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a resumption token stays valid (the issue asks for at least 24 hours). */
export const TOKEN_LIFETIME_MS = 7 * 24 * 3600_000;

export type ListVerb = 'ListRecords' | 'ListIdentifiers' | 'ListSets';

/**
 * Where a list request stands, all of it carried in its resumption token (stateless: nothing
 * is kept on the server). `after` is the keyset: the last id sent (records and sets are
 * listed in the order of their ids, which never change); the request's own arguments follow.
 */
export interface ListPosition {
  verb: ListVerb;
  prefix: string | null;
  set: string | null;
  /** inclusive bounds on the datestamp, ISO 8601 to the second (UTC) */
  from: string | null;
  until: string | null;
  after: string;
  /** how many were sent before this page */
  cursor: number;
  /** the size of the complete list when the harvest began */
  total: number | null;
  /** when the token was issued (ms since the epoch) */
  issued: number;
}

const VERBS: ListVerb[] = ['ListRecords', 'ListIdentifiers', 'ListSets'];

function mac(key: Buffer, body: string): Buffer {
  return createHmac('sha256', key).update(`oai-token.v1.${body}`).digest().subarray(0, 18);
}

/** The token of a position: `<base64url JSON>.<base64url HMAC-SHA-256 (144 bits)>`. */
export function encodeToken(key: Buffer, p: ListPosition): string {
  const body = Buffer.from(
    JSON.stringify([
      VERBS.indexOf(p.verb),
      p.prefix,
      p.set,
      p.from,
      p.until,
      p.after,
      p.cursor,
      p.total,
      p.issued,
    ]),
  ).toString('base64url');
  return `${body}.${mac(key, body).toString('base64url')}`;
}

const str = (v: unknown): v is string => typeof v === 'string' && v.length <= 200;
const strOrNull = (v: unknown): v is string | null => v === null || str(v);
const count = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/**
 * The position a token carries, or null when it is not one this service signed (any change to
 * it breaks the signature), is malformed, or has expired: all are `badResumptionToken`.
 */
export function decodeToken(key: Buffer, token: string, now: number): ListPosition | null {
  if (token.length > 2000) return null;
  const [body, sig, ...rest] = token.split('.');
  if (!body || !sig || rest.length) return null;
  const expected = mac(key, body);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parts) || parts.length !== 9) return null;
  const [verb, prefix, set, from, until, after, cursor, total, issued] = parts as unknown[];
  if (
    typeof verb !== 'number' ||
    !VERBS[verb] ||
    !strOrNull(prefix) ||
    !strOrNull(set) ||
    !strOrNull(from) ||
    !strOrNull(until) ||
    !str(after) ||
    !count(cursor) ||
    !(total === null || count(total)) ||
    !count(issued)
  )
    return null;
  if (now > issued + TOKEN_LIFETIME_MS) return null;
  return { verb: VERBS[verb], prefix, set, from, until, after, cursor, total, issued };
}
