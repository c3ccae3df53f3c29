import { validationError } from '../errors';

/** Query parameters as Express parses them: strings, or arrays of strings for repeated keys. */
export type Query = Record<string, unknown>;

/** The single value of a query parameter (the last one when repeated). */
export function qStr(q: Query, name: string): string | undefined {
  const v = q[name];
  const last: unknown = Array.isArray(v) ? v[v.length - 1] : v;
  return typeof last === 'string' ? last : undefined;
}

/** Every value of a repeatable parameter. */
export function qList(q: Query, name: string): string[] {
  const v = q[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? (v as unknown[]) : [v]).filter(
    (s): s is string => typeof s === 'string' && s !== '',
  );
}

/** Booleans arrive as Python's `True`/`False` or JavaScript's `true`/`false` (also 1/0). */
export function parseBool(name: string, raw: string): boolean {
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw validationError(name, `must be a boolean (true/false), got "${raw}"`);
}

export function qBool(q: Query, name: string): boolean | undefined;
export function qBool(q: Query, name: string, def: boolean): boolean;
export function qBool(q: Query, name: string, def?: boolean): boolean | undefined {
  const raw = qStr(q, name);
  return raw === undefined || raw === '' ? def : parseBool(name, raw);
}

export function qInt(q: Query, name: string, def: number, min: number, max: number): number {
  const raw = qStr(q, name);
  if (raw === undefined || raw === '') return def;
  if (!/^-?\d+$/.test(raw)) throw validationError(name, `must be an integer, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw validationError(name, `must be between ${min} and ${max}`);
  return n;
}

/** `limit`, clamped to the server's maximum page size (clients ask for up to 1000). */
export function qLimit(q: Query, def: number, max: number): number {
  const n = qInt(q, 'limit', def, 1, Number.MAX_SAFE_INTEGER);
  return Math.min(n, max);
}

/** `limit` (clamped) and `offset` of an offset-paginated list. */
export function qOffsetPage(
  q: Query,
  limits: { defaultPageSize: number; maxPageSize: number },
): { limit: number; offset: number } {
  return {
    limit: qLimit(q, limits.defaultPageSize, limits.maxPageSize),
    offset: qInt(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
  };
}

/** A JSON request body that must be an object. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw validationError('body', 'must be a JSON object');
  }
  return body as Record<string, unknown>;
}
