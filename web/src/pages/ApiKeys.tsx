import { When } from '../components/When';
import { useState } from 'preact/hooks';
import { graphql } from '../gql';
import { request } from '../client';
import { useAction, useQuery } from '../hooks';
import { DataTable } from '../components/DataTable';

const MyKeys = graphql(`
  query MyApiKeys {
    myApiKeys {
      uniqueId
      prefix
      label
      status
      createdAt
      expiresAt
      lastUsedAt
    }
  }
`);

const Create = graphql(`
  mutation CreateApiKey($label: String!, $expiresAt: DateTimeISO) {
    createApiKey(label: $label, expiresAt: $expiresAt) {
      secret
      apiKey {
        uniqueId
        prefix
      }
    }
  }
`);

const Revoke = graphql(`
  mutation RevokeApiKey($id: ID!) {
    revokeApiKey(id: $id) {
      uniqueId
      status
    }
  }
`);

const day = (iso: string | null | undefined) => (iso ? <When iso={iso} day /> : 'never');

/** Your own API keys: create one (its secret shown once, here), list them, revoke them. */
export function ApiKeys() {
  const q = useQuery(MyKeys, {});
  const action = useAction();
  const [label, setLabel] = useState('');
  const [days, setDays] = useState('90');
  const [secret, setSecret] = useState<string | null>(null);
  const create = async (e: Event) => {
    e.preventDefault();
    const n = Number(days);
    const expiresAt = new Date(Date.now() + n * 86_400_000).toISOString();
    const made = await action.run(() => request(Create, { label, expiresAt }));
    if (made) {
      setSecret(made.createApiKey.secret);
      setLabel('');
      q.reload();
    }
  };
  const revoke = async (id: string) => {
    if (await action.run(() => request(Revoke, { id }))) q.reload();
  };
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">Your API keys</h1>
      <p>Keys let scripts, instruments and the Python client act as you. Keep them secret.</p>
      {action.error && (
        <p role="alert" class="error">
          {action.error}
        </p>
      )}
      {secret && (
        <div role="status" class="secret">
          <p>Your new key. Copy it now: it is not stored and will not be shown again.</p>
          <code data-testid="new-secret">{secret}</code>{' '}
          <button type="button" onClick={() => setSecret(null)}>
            Done
          </button>
        </div>
      )}
      <form onSubmit={(e) => void create(e)} aria-label="New API key">
        <label>
          Label{' '}
          <input
            name="label"
            required
            maxLength={100}
            value={label}
            onInput={(e) => setLabel(e.currentTarget.value)}
          />
        </label>{' '}
        <label>
          Expires in{' '}
          <select name="days" value={days} onChange={(e) => setDays(e.currentTarget.value)}>
            <option value="7">7 days</option>
            <option value="30">30 days</option>
            <option value="90">90 days</option>
            <option value="365">1 year</option>
          </select>
        </label>{' '}
        <button type="submit" disabled={action.pending}>
          Create key
        </button>
      </form>
      <DataTable
        caption="Your API keys"
        class="keys"
        rows={q.data?.myApiKeys}
        rowKey={(k) => k.uniqueId}
        loading={q.loading}
        error={q.error}
        empty="You have no keys."
        columns={[
          { header: 'Label', cell: (k) => k.label },
          { header: 'Key', cell: (k) => <code>{k.prefix}…</code> },
          { header: 'Status', cell: (k) => k.status },
          { header: 'Created', cell: (k) => day(k.createdAt) },
          { header: 'Expires', cell: (k) => day(k.expiresAt) },
          { header: 'Last used', cell: (k) => day(k.lastUsedAt) },
          {
            header: 'Actions',
            hiddenHeader: 'Actions',
            cell: (k) =>
              k.status === 'active' && (
                <button
                  type="button"
                  disabled={action.pending}
                  aria-label={`Revoke ${k.label ?? k.prefix}`}
                  onClick={() => void revoke(k.uniqueId)}
                >
                  Revoke
                </button>
              ),
          },
        ]}
      />
    </section>
  );
}
