import { useCallback, useEffect, useState } from 'preact/hooks';
import type { TypedDocumentString } from './gql/graphql';
import { request } from './client';

export interface QueryState<R> {
  data: R | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/** Runs a query when the variables change (compared as JSON); the last answer wins. */
export function useQuery<R, V>(doc: TypedDocumentString<R, V>, variables: V, skip = false): QueryState<R> {
  const [state, setState] = useState<{ data: R | null; error: string | null; loading: boolean }>({
    data: null,
    error: null,
    loading: !skip,
  });
  const [tick, setTick] = useState(0);
  const key = JSON.stringify(variables);
  useEffect(() => {
    if (skip) return;
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    request(doc, variables).then(
      (data) => {
        if (live) setState({ data, error: null, loading: false });
      },
      (e: unknown) => {
        if (live) setState({ data: null, error: e instanceof Error ? e.message : String(e), loading: false });
      },
    );
    return () => {
      live = false;
    };
  }, [doc, key, tick, skip]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { ...state, reload };
}

/** A mutation's state: run it, see it pending, see its error. */
export function useAction(): {
  pending: boolean;
  error: string | null;
  run<T>(fn: () => Promise<T>): Promise<T | undefined>;
} {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async <T>(fn: () => Promise<T>) => {
    setPending(true);
    setError(null);
    try {
      return await fn();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return undefined;
    } finally {
      setPending(false);
    }
  }, []);
  return { pending, error, run };
}
