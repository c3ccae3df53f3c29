import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { ArgumentValidationError } from 'type-graphql';
import { AppError, ERROR_TABLE, RETRY_AFTER_SECONDS } from '../errors';
import { databaseError } from '../db/errors';
import type { Logger } from '../logger';

/**
 * A request Apollo refuses with a 4xx status of its own but no code (a persisted query whose
 * hash does not match its text, an unknown persisted-query version): Apollo would call it
 * INTERNAL_SERVER_ERROR, but the fault is the client's.
 */
function isRequestError(err: GraphQLError): boolean {
  if (err.extensions.code !== undefined) return false;
  const status = (err.extensions.http as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** Apollo's formatError: AppError codes through the shared table; internals never leak. */
export function formatGraphqlError(log: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const unwrapped = unwrapResolverError(error);
    // graphql-js wraps a thrown value it does not see as an Error (another realm's, as under
    // jest's sandbox: a driver's ECONNREFUSED) in a NonErrorThrown that keeps it as `thrownValue`
    const thrown = (unwrapped as { name?: unknown; thrownValue?: unknown } | null | undefined) ?? null;
    const original = thrown?.name === 'NonErrorThrown' && thrown.thrownValue ? thrown.thrownValue : unwrapped;
    const known = original instanceof AppError ? original : databaseError(original);
    if (known) {
      if (known !== original) log.warn({ err: original, code: known.wireCode }, 'GraphQL operation failed');
      return {
        message: known.message,
        path: formatted.path,
        locations: formatted.locations,
        extensions: {
          code: known.wireCode,
          ...(known.fields.length ? { fields: known.fields } : {}),
        },
      };
    }
    if (original instanceof ArgumentValidationError) {
      const fields = original.extensions.validationErrors.map((v) => ({
        field: v.property,
        message: Object.values(v.constraints ?? {}).join('; ') || 'is invalid',
      }));
      return {
        message: `Invalid input: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`,
        path: formatted.path,
        locations: formatted.locations,
        extensions: { code: 'BAD_USER_INPUT', fields },
      };
    }
    const code = formatted.extensions?.code;
    if (original instanceof GraphQLError && typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR') {
      const { stacktrace: _drop, ...extensions } = formatted.extensions ?? {};
      return { ...formatted, extensions };
    }
    if (original instanceof GraphQLError && isRequestError(original)) {
      return {
        message: formatted.message,
        extensions: { code: ERROR_TABLE.BAD_REQUEST.code },
      };
    }
    log.error({ err: original, formatted }, 'unhandled GraphQL error');
    return {
      message: 'Internal server error',
      path: formatted.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    };
  };
}

/**
 * While the database is unreachable: `Retry-After` on every response carrying the
 * SERVICE_UNAVAILABLE code, and status 503 when the operation produced no data at all.
 */
export const unavailableStatus: ApolloServerPlugin = {
  requestDidStart() {
    return Promise.resolve({
      willSendResponse({ response }) {
        if (response.body.kind !== 'single') return Promise.resolve();
        const { errors, data } = response.body.singleResult;
        if (errors?.some((e) => e.extensions?.code === 'SERVICE_UNAVAILABLE')) {
          response.http.headers.set('retry-after', String(RETRY_AFTER_SECONDS));
          if (data === undefined || data === null) response.http.status = 503;
        }
        return Promise.resolve();
      },
    });
  },
};
