import { signal } from './signal';

const KEY = 'catalog.apiKey';

/** The API key of this browser tab's session: kept in sessionStorage, gone when the tab closes. */
export const apiKey = signal<string | null>(sessionStorage.getItem(KEY));

/** Why the last session ended, shown on the sign-in form (a key refused mid-session, say). */
export const signOutReason = signal<string | null>(null);

export function signIn(key: string): void {
  sessionStorage.setItem(KEY, key);
  signOutReason.set(null);
  apiKey.set(key);
}

export function signOut(reason: string | null = null): void {
  sessionStorage.removeItem(KEY);
  signOutReason.set(reason);
  apiKey.set(null);
}
