import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { ArgumentValidationError } from 'type-graphql';
import { AppError, ERROR_TABLE } from '../errors';
import type { Logger } from '../logger';

/** Apollo's formatError: AppError codes through the shared table; internals never leak. */
export function formatGraphqlError(log: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (original instanceof AppError) {
      return {
        message: original.message,
        path: formatted.path,
        locations: formatted.locations,
        extensions: {
          code: ERROR_TABLE[original.code].graphql,
          ...(original.fields.length ? { fields: original.fields } : {}),
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
    log.error({ err: original, formatted }, 'unhandled GraphQL error');
    return {
      message: 'Internal server error',
      path: formatted.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    };
  };
}
