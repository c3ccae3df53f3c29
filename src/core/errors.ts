/**
 * One error model for both transports. Services throw {@link AppError}; the REST error middleware
 * and the GraphQL error formatter map its code through {@link ERROR_TABLE}.
 */
export type ErrorCode =
  | 'VALIDATION'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'RANGE_NOT_SATISFIABLE'
  | 'NOT_IMPLEMENTED'
  | 'INTERNAL';

export const ERROR_TABLE: Record<ErrorCode, { status: number; graphql: string }> = {
  VALIDATION: { status: 422, graphql: 'BAD_USER_INPUT' },
  UNAUTHENTICATED: { status: 401, graphql: 'UNAUTHENTICATED' },
  FORBIDDEN: { status: 403, graphql: 'FORBIDDEN' },
  NOT_FOUND: { status: 404, graphql: 'NOT_FOUND' },
  CONFLICT: { status: 409, graphql: 'CONFLICT' },
  PAYLOAD_TOO_LARGE: { status: 413, graphql: 'PAYLOAD_TOO_LARGE' },
  RANGE_NOT_SATISFIABLE: { status: 416, graphql: 'BAD_USER_INPUT' },
  NOT_IMPLEMENTED: { status: 501, graphql: 'NOT_IMPLEMENTED' },
  INTERNAL: { status: 500, graphql: 'INTERNAL_SERVER_ERROR' },
};

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
