import { useState } from 'preact/hooks';
import { session, signIn, signOutReason } from '../session';
import { useSignal } from '../signal';

/** Signing in: through the OpenID provider when one is configured, or with an API key once. */
export function SignIn() {
  const reason = useSignal(signOutReason);
  const oidc = useSignal(session)?.sign_in.oidc ?? null;
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const trimmed = key.trim();
    if (!trimmed) {
      setError('Enter your API key.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      await signIn(trimmed);
    } catch (err) {
      setError(
        err instanceof Error && /invalid|expired|revoked|API key/i.test(err.message)
          ? 'This API key was not accepted: it is wrong, expired or revoked. Ask an administrator for a new one.'
          : `Signing in failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    } finally {
      setPending(false);
    }
  };
  return (
    <main id="main" class="signin">
      <h1>Data catalog</h1>
      {oidc && (
        <p>
          <a
            class="button"
            href={`${oidc.login_url}?return_to=${encodeURIComponent(location.pathname + location.search)}`}
          >
            Sign in with {oidc.name}
          </a>
        </p>
      )}
      <form onSubmit={(e) => void submit(e)} aria-describedby="signin-help">
        <label for="apikey">API key</label>
        <input
          id="apikey"
          name="apikey"
          type="password"
          autocomplete="off"
          value={key}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'signin-error' : undefined}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
        <button type="submit" disabled={pending}>
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
        <p id="signin-help" class="hint">
          The key is used once: the service keeps your session for every tab of this browser until you sign
          out.
        </p>
        {(error ?? reason) && (
          <p id="signin-error" role="alert" class="error">
            {error ?? `You were signed out: ${reason ?? ''}`}
          </p>
        )}
      </form>
    </main>
  );
}
