import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import {
  execute,
  getVariableValues,
  GraphQLError,
  OperationTypeNode,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { graphqlExecutions } from '../metrics/registry';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

/** Apollo's "gateway" (a schema and an executor), the hook through which it runs another engine. */
type Gateway = ApolloServerOptionsWithGateway<Record<string, unknown>>['gateway'];
type GatewayExecutor = (rc: {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  operationName: string | null;
  context: unknown;
  request: { variables?: Record<string, unknown> };
}) => Promise<ExecutionResult>;

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown }).then === 'function';
}

/**
 * graphql-jit's errors as graphql-js makes them: its own error class has no `extensions` when the
 * thrown error has none (Apollo reads `extensions.code` of every error) and read-only properties.
 * The same message, path, locations and `originalError`, as `locatedError` would give.
 */
function asGraphqlJsErrors(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length) return result;
  const errors = result.errors.map((e) => {
    const copy = new GraphQLError(e.message, {
      path: e.path,
      originalError: e.originalError ?? undefined,
      // graphql-jit's is undefined when the thrown error had none (its type says otherwise)
      extensions: e.extensions,
    });
    (copy as { locations?: GraphQLError['locations'] }).locations = e.locations;
    return copy;
  });
  return { ...result, errors };
}

/** How many times a document runs on graphql-js before it is compiled (a one-off is never compiled). */
export const COMPILE_AFTER = 2;

interface DocumentState {
  /** executions seen, per operation name ('' for the only one) */
  seen: Map<string, number>;
  /** the compiled operation, or `false` when graphql-jit refused it (it stays on graphql-js) */
  compiled: Map<string, CompiledQuery | false>;
}

/**
 * Executes queries a document at a time as graphql-jit compiles them (docs/performance.md,
 * "Compiled execution"), everything else as graphql-js does:
 *
 * - only **queries**: mutations and subscriptions always run on graphql-js;
 * - only **hot documents**: a document runs on graphql-js until it has been executed
 *   `COMPILE_AFTER` times (Apollo hands the same parsed `DocumentNode` back from its document
 *   store for a repeated query, so it is the key; a document that leaves the store is forgotten
 *   with it, a `WeakMap` holds no document alive);
 * - only **well-typed variables**: they are coerced by graphql-js first, and if that fails the
 *   request runs on graphql-js, so every variable error is graphql-js's own.
 *
 * Results (data, errors with their `path`, `locations` and `originalError`, null propagation)
 * are the same either way: the whole GraphQL suite runs on it, and
 * `test/integration/graphql-compiled.test.ts` compares both engines on the same documents.
 */
export class CompiledExecutor {
  private readonly documents = new WeakMap<DocumentNode, DocumentState>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly compileAfter = COMPILE_AFTER,
  ) {}

  run(args: {
    document: DocumentNode;
    operation: OperationDefinitionNode;
    operationName: string | null;
    contextValue: unknown;
    variableValues: Record<string, unknown> | undefined;
  }): Promise<ExecutionResult> | ExecutionResult {
    const compiled =
      args.operation.operation === OperationTypeNode.QUERY ? this.compiledFor(args) : undefined;
    if (compiled) {
      graphqlExecutions.inc({ engine: 'compiled' });
      const result = compiled.query(undefined, args.contextValue, args.variableValues ?? {});
      return isPromise(result) ? result.then(asGraphqlJsErrors) : asGraphqlJsErrors(result);
    }
    graphqlExecutions.inc({ engine: 'graphql-js' });
    return execute({
      schema: this.schema,
      document: args.document,
      contextValue: args.contextValue,
      variableValues: args.variableValues,
      operationName: args.operationName ?? undefined,
    });
  }

  private compiledFor(args: {
    document: DocumentNode;
    operation: OperationDefinitionNode;
    operationName: string | null;
    variableValues: Record<string, unknown> | undefined;
  }): CompiledQuery | undefined {
    let state = this.documents.get(args.document);
    if (!state) {
      state = { seen: new Map(), compiled: new Map() };
      this.documents.set(args.document, state);
    }
    const name = args.operationName ?? '';
    let compiled = state.compiled.get(name);
    if (compiled === undefined) {
      const seen = (state.seen.get(name) ?? 0) + 1;
      state.seen.set(name, seen);
      if (seen <= this.compileAfter) return undefined;
      const result = compileQuery(this.schema, args.document, args.operationName ?? undefined, {
        // answers are serialized by Apollo (JSON.stringify), leaves as graphql-js does
        customJSONSerializer: false,
      });
      compiled = isCompiledQuery(result) ? result : false;
      state.compiled.set(name, compiled);
    }
    if (!compiled) return undefined;
    // variables graphql-js would refuse are refused by graphql-js, in its words
    const defs = args.operation.variableDefinitions ?? [];
    if (defs.length && 'errors' in getVariableValues(this.schema, defs, args.variableValues ?? {})) {
      return undefined;
    }
    return compiled;
  }

  /**
   * The executor as Apollo Server takes it: a "gateway" whose schema is this one and whose
   * executor is `run`. Apollo still parses, validates and runs every plugin hook but
   * `executionDidStart`'s field hooks (none is used here: the cache-control plugin is disabled).
   */
  asGateway(): Gateway {
    const executor: GatewayExecutor = (rc) =>
      Promise.resolve(
        this.run({
          document: rc.document,
          operation: rc.operation,
          operationName: rc.operationName,
          contextValue: rc.context,
          variableValues: rc.request.variables,
        }),
      );
    return {
      onSchemaLoadOrUpdate: (callback) => {
        callback({ apiSchema: this.schema, coreSupergraphSdl: '' });
        return () => undefined;
      },
      load: () => Promise.resolve({ executor: executor as never }),
      stop: () => Promise.resolve(),
    };
  }
}
