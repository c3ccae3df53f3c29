import { AppError, unavailable } from '../errors';

/** Network failures of the connection to PostgreSQL (Node's errno codes). */
const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** What the pg driver and knex's pool say when the server went away or cannot be reached. */
const LOST =
  /Connection terminated|connection error and is not queryable|Timeout acquiring a connection|Connection ended|server closed the connection|Client was closed/i;

/** SQLSTATEs of data the client sent that PostgreSQL cannot take (class 22; 54000). */
const DATA_MESSAGES: Record<string, string> = {
  '22P05': 'text must not contain NUL characters (\\u0000)',
  '22021': 'text must not contain NUL characters (\\u0000) or invalid UTF-8',
  '22001': 'a value is too long',
  '22003': 'a number is out of range',
  '22007': 'a date or time is not valid',
  '22008': 'a date or time is out of range',
  '54000': 'a value is too large to be indexed',
  '54001': 'a value is nested too deeply',
};

function codesOf(err: unknown): string[] {
  const codes: string[] = [];
  for (let e: unknown = err, i = 0; e && typeof e === 'object' && i < 5; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors)) codes.push(...errors.flatMap((x) => codesOf(x)));
    e = (e as { cause?: unknown }).cause;
  }
  return codes;
}

/** True when `err` says PostgreSQL is unreachable (down, restarting, out of connections). */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const codes = codesOf(err);
  if (
    codes.some(
      (c) =>
        NETWORK.has(c) ||
        c.startsWith('08') ||
        c === '57P01' ||
        c === '57P02' ||
        c === '57P03' ||
        c === '53300',
    )
  ) {
    return true;
  }
  const message = (err as { message?: unknown }).message;
  return typeof message === 'string' && LOST.test(message);
}

/** The column PostgreSQL named in a constraint error, if any. */
function columnOf(err: unknown): string {
  const column = (err as { column?: unknown }).column;
  return typeof column === 'string' && /^\w{1,63}$/.test(column) ? column : 'input';
}

/**
 * The client-facing error for a database error that input (not the service) caused, where the
 * service did not check it first: 503 while the database is unreachable, 422 for values
 * PostgreSQL refuses (data exceptions, a required column set to null, a check constraint), 409
 * for a uniqueness or reference conflict; null for anything else (a bug: it stays a 500). Driver
 * messages are never passed on.
 */
export function databaseError(err: unknown): AppError | null {
  if (err instanceof AppError) return null;
  if (isDatabaseUnavailable(err)) return unavailable();
  const codes = codesOf(err);
  if (codes.includes('23502')) {
    const field = columnOf(err);
    return new AppError('VALIDATION', `${field}: must not be null`, [{ field, message: 'must not be null' }]);
  }
  if (codes.includes('23514'))
    return new AppError('VALIDATION', 'Invalid input: a value is out of the allowed range');
  if (codes.includes('23505')) return new AppError('CONFLICT', 'A record with these values already exists');
  if (codes.includes('23503')) {
    return new AppError('CONFLICT', 'A related record does not exist (any more) or still refers to this one');
  }
  const code = codes.find((c) => /^(22|54)[0-9A-Z]{3}$/.test(c));
  if (!code) return null;
  const message = DATA_MESSAGES[code] ?? 'a value is not valid';
  return new AppError('VALIDATION', `Invalid input: ${message}`, [{ field: 'input', message }]);
}
