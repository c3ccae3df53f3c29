import { encodeCursor, type KeysetPage } from '../pagination';
import { pageInfo, type ConnectionShape, type PageInfo, type TotalCounter } from './connection';

type Built<T> = { edges: { cursor: string; node: T }[]; nodes: T[]; pageInfo: PageInfo };

/**
 * Wraps a keyset page as a Relay connection object. `page` may be a function: the page is then
 * fetched only when the query selects `edges`, `nodes` or `pageInfo` (once, however many of them),
 * so a `totalCount`-only selection runs the count alone, never a page query beside it.
 */
export function toConnection<T extends { uniqueId: string }, C extends object>(
  ConnectionClass: new () => C,
  page: KeysetPage<T> | (() => Promise<KeysetPage<T>>),
  counter: TotalCounter,
  edgeExtra?: (item: T) => Record<string, unknown>,
): C {
  if (typeof page !== 'function') {
    const connection = new ConnectionClass() as C & ConnectionShape<T>;
    connection.counter = counter;
    return Object.assign(connection, build(page, edgeExtra));
  }
  const connection = new (lazyClass(ConnectionClass))() as C & ConnectionShape<T> & LazyState<T>;
  connection.counter = counter;
  connection.page = page;
  connection.edgeExtra = edgeExtra;
  return connection;
}

function build<T extends { uniqueId: string }>(
  p: KeysetPage<T>,
  edgeExtra?: (item: T) => Record<string, unknown>,
): Built<T> {
  const edges = p.items.map((node) =>
    Object.assign(
      { cursor: p.cursors?.get(node.uniqueId) ?? encodeCursor(node.uniqueId), node },
      edgeExtra?.(node),
    ),
  );
  return { edges, nodes: p.items, pageInfo: pageInfo(edges, p.nextCursor !== null) };
}

interface LazyState<T extends { uniqueId: string }> {
  page: () => Promise<KeysetPage<T>>;
  edgeExtra?: (item: T) => Record<string, unknown>;
  built?: Promise<Built<T>>;
}

const lazyClasses = new WeakMap<new () => object, new () => object>();

/**
 * A subclass of the connection class whose `edges`, `nodes` and `pageInfo` are getters on its
 * prototype: GraphQL's default resolver reads the property, so only a selected field starts the
 * page (once for all three). Defined once per connection class rather than three properties
 * defined on every connection object (one per node of a list: `Dataset.files`).
 */
function lazyClass<C extends object>(ConnectionClass: new () => C): new () => C {
  let lazy = lazyClasses.get(ConnectionClass) as (new () => C) | undefined;
  if (!lazy) {
    lazy = class extends (ConnectionClass as new () => object) {} as new () => C;
    for (const field of ['edges', 'nodes', 'pageInfo'] as const) {
      Object.defineProperty(lazy.prototype, field, {
        configurable: true,
        get(this: LazyState<{ uniqueId: string }>) {
          this.built ??= this.page().then((p) => build(p, this.edgeExtra));
          return this.built.then((b) => b[field]);
        },
      });
    }
    lazyClasses.set(ConnectionClass, lazy);
  }
  return lazy;
}
