import type { TypedDocumentString } from './gql/graphql';
import { csrfToken } from './session';

/**
 * Follows a GraphQL subscription over the service's WebSocket (graphql-ws, loaded only when a
 * page subscribes). The socket is authenticated by the page's session cookie and its CSRF
 * token (docs/events.md, "Live updates"). `onEvent` gets each event's data; `onError` when the
 * subscription cannot start or breaks (the page then falls back to reading again). Returns the
 * function that ends it.
 */
export function subscribe<R, V>(
  doc: TypedDocumentString<R, V>,
  variables: V,
  onEvent: (data: R) => void,
  onError: (e: unknown) => void,
): () => void {
  let ended = false;
  let dispose = () => {
    ended = true;
  };
  void import('graphql-ws').then(
    ({ createClient }) => {
      if (ended) return;
      const client = createClient({
        url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
        connectionParams: { 'x-csrf-token': csrfToken() },
        lazy: false,
        retryAttempts: 3,
      });
      const stop = client.subscribe<R>(
        { query: doc.toString(), variables: variables as Record<string, unknown> },
        {
          next: (r) => {
            if (r.data) onEvent(r.data);
            else if (r.errors?.length) onError(new Error(r.errors[0].message));
          },
          error: onError,
          complete: () => undefined,
        },
      );
      dispose = () => {
        stop();
        void client.dispose();
      };
    },
    (e: unknown) => onError(e),
  );
  return () => dispose();
}
