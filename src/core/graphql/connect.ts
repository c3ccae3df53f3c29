import { encodeCursor, type KeysetPage } from '../pagination';
import { pageInfo, type ConnectionShape, type TotalCounter } from './connection';

/** Wraps a keyset page as a Relay connection object. */
export function toConnection<T extends { uniqueId: string }, C extends object>(
  ConnectionClass: new () => C,
  page: KeysetPage<T>,
  counter: TotalCounter,
  edgeExtra?: (item: T) => Record<string, unknown>,
): C {
  const edges = page.items.map((node) => ({
    cursor: page.cursors?.get(node.uniqueId) ?? encodeCursor(node.uniqueId),
    node,
    ...(edgeExtra?.(node) ?? {}),
  }));
  const connection = new ConnectionClass() as C & ConnectionShape<T>;
  return Object.assign(connection, {
    edges,
    nodes: page.items,
    pageInfo: pageInfo(edges, page.nextCursor !== null),
    counter,
  });
}
