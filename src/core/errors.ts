/**
 * One error model for both transports. Services throw {@link AppError}; the REST error middleware
 * and the GraphQL error formatter map its code through {@link ERROR_TABLE} to one wire code,
 * the same on both (REST `code`, GraphQL `extensions.code`), and to the REST status. The
 * vocabulary is documented in the README ("Errors").
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'VALIDATION'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RANGE_NOT_SATISFIABLE'
  | 'NOT_IMPLEMENTED'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL';

/** `code` is what clients see on both transports (GraphQL's own names where it has one). */
export const ERROR_TABLE: Record<ErrorCode, { status: number; code: string }> = {
  BAD_REQUEST: { status: 400, code: 'BAD_REQUEST' },
  VALIDATION: { status: 422, code: 'BAD_USER_INPUT' },
  UNAUTHENTICATED: { status: 401, code: 'UNAUTHENTICATED' },
  FORBIDDEN: { status: 403, code: 'FORBIDDEN' },
  NOT_FOUND: { status: 404, code: 'NOT_FOUND' },
  METHOD_NOT_ALLOWED: { status: 405, code: 'METHOD_NOT_ALLOWED' },
  CONFLICT: { status: 409, code: 'CONFLICT' },
  PAYLOAD_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  RANGE_NOT_SATISFIABLE: { status: 416, code: 'RANGE_NOT_SATISFIABLE' },
  NOT_IMPLEMENTED: { status: 501, code: 'NOT_IMPLEMENTED' },
  SERVICE_UNAVAILABLE: { status: 503, code: 'SERVICE_UNAVAILABLE' },
  INTERNAL: { status: 500, code: 'INTERNAL_SERVER_ERROR' },
};

/** Seconds clients are asked to wait (`Retry-After`) while the database is unreachable. */
export const RETRY_AFTER_SECONDS = 2;

/** A problem with one input field; `field` uses the wire name (snake_case on REST). */
export interface FieldProblem {
  field: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields: FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return ERROR_TABLE[this.code].status;
  }

  /** The code clients see (REST `code`, GraphQL `extensions.code`). */
  get wireCode(): string {
    return ERROR_TABLE[this.code].code;
  }
}

export function validationError(field: string, message: string): AppError {
  return new AppError('VALIDATION', `${field}: ${message}`, [{ field, message }]);
}

/** Throws one validation error listing every problem, when there are any. */
export function assertNoProblems(problems: FieldProblem[]): void {
  if (problems.length === 0) return;
  const text = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
  throw new AppError('VALIDATION', text, problems);
}

export const notFound = (what: string, id: string): AppError =>
  new AppError('NOT_FOUND', `${what} ${id} not found`);
export const conflict = (message: string): AppError => new AppError('CONFLICT', message);
export const forbidden = (message = 'You do not have permission to perform this action'): AppError =>
  new AppError('FORBIDDEN', message);
export const unauthenticated = (message = 'A valid API key is required'): AppError =>
  new AppError('UNAUTHENTICATED', message);
export const unavailable = (): AppError =>
  new AppError('SERVICE_UNAVAILABLE', 'The database is unreachable: retry in a few seconds');
