import { useState } from 'preact/hooks';
import { graphql } from '../gql';
import { request } from '../client';
import { signIn, signOutReason } from '../session';
import { useSignal } from '../signal';

const Check = graphql(`
  query SignInCheck {
    me {
      user {
        uniqueId
      }
    }
  }
`);

/** The key is checked against the service before the session keeps it. */
export function SignIn() {
  const reason = useSignal(signOutReason);
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
      await request(Check, {}, trimmed);
      signIn(trimmed);
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
          The key is kept for this browser tab only; signing out or closing the tab forgets it.
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
