import { signal } from './signal';
import { reach } from './network';

/** The page's session as the service reports it (`GET /auth/session`). */
export interface SessionInfo {
  signed_in: boolean;
  user: {
    unique_id: string;
    username: string | null;
    first_name: string | null;
    last_name: string | null;
    is_platform_admin: boolean;
  } | null;
  session_id: string | null;
  expires_at: string | null;
  /** sent as `X-CSRF-Token` with every write */
  csrf_token: string | null;
  /** what the session's requests act in: an administrator's starts `normal` (the member's view) */
  privilege_mode?: 'normal' | 'elevated' | null;
  /** whether the user may elevate (their stored platform role is `admin`) */
  can_elevate?: boolean;
  sign_in: { api_key: boolean; oidc?: { name: string; login_url: string } | null };
}

/**
 * The browser session: kept by the service (an HttpOnly cookie every tab of this browser
 * shares), so reloads and new tabs stay signed in. `undefined` until the first answer.
 */
export const session = signal<SessionInfo | undefined>(undefined);

/** Why the last session ended, shown on the sign-in form (a session revoked mid-use, say). */
export const signOutReason = signal<string | null>(null);

/** The CSRF token writes carry ('' when signed out). */
export const csrfToken = (): string => session.get()?.csrf_token ?? '';

async function readSession(res: Response): Promise<SessionInfo> {
  const body = (await res.json()) as SessionInfo & { detail?: string };
  if (!res.ok) throw new Error(body.detail ?? `The service answered ${res.status}`);
  return body;
}

/** Asks the service which session this browser is in (at start). */
export async function loadSession(): Promise<void> {
  try {
    session.set(await readSession(await reach('/auth/session', { credentials: 'same-origin' })));
  } catch (err) {
    signOutReason.set(err instanceof Error ? err.message : String(err));
    session.set({
      signed_in: false,
      user: null,
      session_id: null,
      expires_at: null,
      csrf_token: null,
      sign_in: { api_key: true },
    });
  }
}

/** Turns an API key into a session once (`POST /auth/key`); throws the service's reason. */
export async function signIn(key: string): Promise<void> {
  const res = await reach('/auth/key', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: key }),
  });
  const next = await readSession(res);
  signOutReason.set(null);
  session.set(next);
}

/** The session ended (revoked, expired, signed out in another tab): back to the sign-in form. */
export function sessionEnded(reason: string | null): void {
  const current = session.get();
  signOutReason.set(reason);
  session.set({
    signed_in: false,
    user: null,
    session_id: null,
    expires_at: null,
    csrf_token: null,
    sign_in: current?.sign_in ?? { api_key: true },
  });
}

/** Signs out: the service ends the session for every tab. */
export async function signOut(): Promise<void> {
  await fetch('/auth/logout', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'x-csrf-token': csrfToken() },
  }).catch(() => undefined);
  sessionEnded(null);
}

/**
 * Elevates the session to administrative work, or returns it to the member's view: the mode is
 * kept on the session by the service, so every tab and reload follows it. Throws the service's
 * reason (403 for someone who may not elevate).
 */
export async function setPrivilegeMode(mode: 'normal' | 'elevated'): Promise<void> {
  const res = await fetch(mode === 'elevated' ? '/auth/session/elevate' : '/auth/session/drop-elevation', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'x-csrf-token': csrfToken() },
  });
  if (res.status === 401) {
    sessionEnded('Your session has ended: sign in again');
    return;
  }
  session.set(await readSession(res));
}

/**
 * Asks again which session this browser is in when a tab comes back into view: a mode switched,
 * or a sign-out, in another tab shows here too.
 */
export function followSessionAcrossTabs(): void {
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible' || !session.get()?.signed_in) return;
    void fetch('/auth/session', { credentials: 'same-origin' })
      .then(readSession)
      .then((next) => {
        const current = session.get();
        if (
          next.signed_in !== current?.signed_in ||
          next.session_id !== current.session_id ||
          next.privilege_mode !== current.privilege_mode
        ) {
          if (!next.signed_in) sessionEnded('You signed out in another tab, or your session ended');
          else session.set(next);
        }
      })
      .catch(() => undefined);
  });
}
