import {
  GraphQLError,
  Kind,
  getNullableType,
  isListType,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
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

export interface ListSizes {
  /** page size of a paged list (`first`/`limit`) when the query gives none */
  defaultPageSize: number;
  maxPageSize: number;
  /** items of an unpaged list of a record (GRAPHQL_LIST_MAX) */
  listMax: number;
  /** nodes of an entity or project graph (GRAPH_MAX_NODES) */
  graphMaxNodes: number;
}

/**
 * The field extension (`@Extensions(listCap(...))`) of an unpaged list whose cap is not
 * GRAPHQL_LIST_MAX: `factor` times the size `size` names, a fixed number of items, or as many
 * items as the list argument `lengthOf` holds (within GRAPHQL_LIST_MAX: `nodes(ids:)`). On a field
 * that is not a list, the number of times its children are charged, whatever its page
 * arguments say (`items: 1` for one object whose own lists carry their caps, such as a page
 * of a graph).
 */
export interface ListCap {
  listCap: { size?: keyof ListSizes; factor?: number; items?: number; lengthOf?: string };
}
export function listCap(cap: ListCap['listCap']): ListCap {
  return { listCap: cap };
}

function capOf(extensions: unknown, sizes: ListSizes, args: Record<string, unknown>): number | null {
  const cap = (extensions as Partial<ListCap> | undefined)?.listCap;
  if (!cap) return null;
  if (cap.items !== undefined) return cap.items;
  if (cap.lengthOf !== undefined) {
    const list = args[cap.lengthOf];
    return Math.min(Array.isArray(list) ? list.length : 1, sizes.listMax);
  }
  return sizes[cap.size ?? 'listMax'] * (cap.factor ?? 1);
}

/**
 * Every list costs its children as many times as it can hold items: a paged list (arguments
 * `first` or `limit`) the page size it will use (the given one, or the default, within the
 * maximum); the `edges`/`nodes` of a connection nothing more (their parent counted the page); any
 * other list its cap (its `listCap` extension, else GRAPHQL_LIST_MAX). Introspection is left to the default estimator (graphql-js bounds its
 * nesting).
 */
export function listEstimator(sizes: ListSizes): ComplexityEstimator {
  return ({ type, field, args, childComplexity }) => {
    if (type.name.startsWith('__')) return undefined;
    const cap = capOf(field.extensions, sizes, args);
    if (cap !== null && !isListType(getNullableType(field.type))) return 1 + childComplexity * cap;
    if (field.args.some((a) => a.name === 'first' || a.name === 'limit')) {
      const given = (args as { first?: unknown }).first ?? (args as { limit?: unknown }).limit;
      const size = typeof given === 'number' && given > 0 ? given : sizes.defaultPageSize;
      return 1 + childComplexity * Math.min(size, sizes.maxPageSize);
    }
    if (!isListType(getNullableType(field.type))) return undefined;
    if (type.name.endsWith('Connection')) return 1 + childComplexity;
    return 1 + childComplexity * (cap ?? sizes.listMax);
  };
}

/** An Apollo plugin rejecting operations nested deeper than `maxDepth` or costing more than `max`. */
/**
 * Refuses an operation deeper than `maxDepth` or costlier than `max` (the same measure for HTTP
 * and for subscriptions over WebSocket).
 */
export function checkLimits(
  args: {
    schema: GraphQLSchema;
    document: DocumentNode;
    operation: OperationDefinitionNode | null | undefined;
    operationName?: string | null;
    variables?: Record<string, unknown> | null;
  },
  maxDepth: number,
  max: number,
  estimator: ComplexityEstimator,
): void {
  const { schema, document, operation } = args;
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
      operationName: args.operationName ?? undefined,
      variables: args.variables ?? {},
      estimators: [estimator, fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
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
}

/** Operations remembered as within the limits, per parsed document (see {@link queryLimits}). */
const PASSED_PER_DOCUMENT = 32;

export function queryLimits(maxDepth: number, max: number, sizes: ListSizes): ApolloServerPlugin {
  const estimator = listEstimator(sizes);
  // Apollo hands every request of the same query text the same parsed document (its document
  // store): an operation and variables found within the limits once are not measured again
  const passed = new WeakMap<DocumentNode, Set<string>>();
  return {
    requestDidStart() {
      return Promise.resolve({
        didResolveOperation({ request, document, schema, operation }) {
          const key = `${request.operationName ?? ''}\u0000${JSON.stringify(request.variables ?? {})}`;
          let known = passed.get(document);
          if (known?.has(key)) return Promise.resolve();
          checkLimits(
            {
              schema,
              document,
              operation,
              operationName: request.operationName,
              variables: request.variables,
            },
            maxDepth,
            max,
            estimator,
          );
          if (!known) passed.set(document, (known = new Set()));
          if (known.size >= PASSED_PER_DOCUMENT) known.clear();
          known.add(key);
          return Promise.resolve();
        },
      });
    },
  };
}
