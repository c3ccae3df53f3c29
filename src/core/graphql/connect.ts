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
  const build = (p: KeysetPage<T>): Built<T> => {
    const edges = p.items.map((node) =>
      Object.assign(
        { cursor: p.cursors?.get(node.uniqueId) ?? encodeCursor(node.uniqueId), node },
        edgeExtra?.(node),
      ),
    );
    return { edges, nodes: p.items, pageInfo: pageInfo(edges, p.nextCursor !== null) };
  };
  const connection = new ConnectionClass() as C & ConnectionShape<T>;
  connection.counter = counter;
  if (typeof page !== 'function') return Object.assign(connection, build(page));
  let built: Promise<Built<T>> | undefined;
  for (const field of ['edges', 'nodes', 'pageInfo'] as const) {
    Object.defineProperty(connection, field, {
      enumerable: true,
      configurable: true,
      // GraphQL's default resolver reads the property: only a selected field starts the page
      get: () => (built ??= page().then(build)).then((b) => b[field]),
    });
  }
  return connection;
}
