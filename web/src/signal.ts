import { useLayoutEffect, useState } from 'preact/hooks';

/** A value that components can subscribe to (the session key, the current URL). */
export interface Signal<T> {
  get(): T;
  set(value: T): void;
  subscribe(listener: () => void): () => void;
}

export function signal<T>(initial: T): Signal<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      value = next;
      for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The signal's current value; the component renders again when it changes. The subscription is
 * taken in a layout effect (synchronously after the render is committed), and a change made
 * between the render and the subscription is caught by comparing the value: subscribing in a plain
 * effect, which Preact runs after the next animation frame, missed a session or location set in
 * that gap, and the page then waited forever on a value it had been given (the "stalled page"
 * of the browser tests, docs/development.md).
 */
export function useSignal<T>(s: Signal<T>): T {
  const value = s.get();
  const [, force] = useState(0);
  useLayoutEffect(() => {
    const unsubscribe = s.subscribe(() => force((n) => n + 1));
    if (s.get() !== value) force((n) => n + 1);
    return unsubscribe;
    // the value read at this render is the one to compare with; later renders are subscribed
  }, [s]);
  return value;
}
