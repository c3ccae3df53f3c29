import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import {
  fieldExtensionsEstimator,
  getComplexity,
  simpleEstimator,
  type ComplexityEstimator,
} from 'graphql-query-complexity';

/**
 * A validation rule rejecting operations nested deeper than `max` fields. Introspection fields
 * (`__schema`, `__type`) are not counted, so explorers can load the schema.
 */
export function depthLimit(max: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) {
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
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, 0, new Set());
        if (depth > max) {
          context.reportError(
            new GraphQLError(`Query depth ${depth} exceeds the maximum of ${max}`, {
              nodes: [node],
              extensions: { code: 'QUERY_TOO_DEEP' },
            }),
          );
        }
      },
    };
  };
}

/** List fields taking `first` or `limit` cost their child complexity that many times. */
const paginationEstimator: ComplexityEstimator = ({ args, childComplexity }) => {
  const n = (args as { first?: unknown; limit?: unknown }).first ?? (args as { limit?: unknown }).limit;
  return typeof n === 'number' && n > 0 ? 1 + childComplexity * n : undefined;
};

/** An Apollo plugin rejecting operations whose estimated cost exceeds `max`. */
export function complexityLimit(max: number): ApolloServerPlugin {
  return {
    requestDidStart() {
      return Promise.resolve({
        didResolveOperation({ request, document, schema }) {
          const complexity = getComplexity({
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
