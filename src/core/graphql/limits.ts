import {
  GraphQLError,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import {
  fieldExtensionsEstimator,
  getComplexity,
  simpleEstimator,
  type ComplexityEstimator,
} from 'graphql-query-complexity';

/**
 * The depth of an operation: the longest chain of nested fields, following fragments.
 * Introspection fields (`__schema`, `__type`) are not counted, so explorers can load the schema.
 */
export function operationDepth(document: DocumentNode, operation: OperationDefinitionNode): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  }
  const depthOf = (set: SelectionSetNode | undefined, depth: number, seen: Set<string>): number => {
    if (!set) return depth;
    let deepest = depth;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value.startsWith('__')) continue;
        deepest = Math.max(deepest, depthOf(sel.selectionSet, depth + 1, seen));
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        deepest = Math.max(deepest, depthOf(sel.selectionSet, depth, seen));
      } else {
        const name = sel.name.value;
        const frag = fragments.get(name);
        if (frag && !seen.has(name))
          deepest = Math.max(deepest, depthOf(frag.selectionSet, depth, new Set([...seen, name])));
      }
    }
    return deepest;
  };
  return depthOf(operation.selectionSet, 0, new Set());
}

/** List fields taking `first` or `limit` cost their child complexity that many times. */
const paginationEstimator: ComplexityEstimator = ({ args, childComplexity }) => {
  const n = (args as { first?: unknown; limit?: unknown }).first ?? (args as { limit?: unknown }).limit;
  return typeof n === 'number' && n > 0 ? 1 + childComplexity * n : undefined;
};

/** An Apollo plugin rejecting operations nested deeper than `maxDepth` or costing more than `max`. */
export function queryLimits(maxDepth: number, max: number): ApolloServerPlugin {
  return {
    requestDidStart() {
      return Promise.resolve({
        didResolveOperation({ request, document, schema, operation }) {
          const depth = operation ? operationDepth(document, operation) : 0;
          if (depth > maxDepth) {
            throw new GraphQLError(`Query depth ${depth} exceeds the maximum of ${maxDepth}`, {
              extensions: { code: 'QUERY_TOO_DEEP', http: { status: 400 } },
            });
          }
          let complexity: number;
          try {
            complexity = getComplexity({
              schema,
              query: document,
              operationName: request.operationName ?? undefined,
              variables: request.variables ?? {},
              estimators: [
                paginationEstimator,
                fieldExtensionsEstimator(),
                simpleEstimator({ defaultComplexity: 1 }),
              ],
            });
          } catch (err) {
            // variables that do not fit their declared types: the client's input error
            throw new GraphQLError(err instanceof Error ? err.message : 'Invalid variables', {
              extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
            });
          }
          if (complexity > max) {
            throw new GraphQLError(`Query complexity ${complexity} exceeds the maximum of ${max}`, {
              extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } },
            });
          }
          return Promise.resolve();
        },
      });
    },
  };
}
