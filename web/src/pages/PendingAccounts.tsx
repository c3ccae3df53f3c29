import { graphql } from '../gql';
import { request } from '../client';
import { useAction, useQuery } from '../hooks';
import { DataTable } from '../components/DataTable';
import { userName } from '../components/Fields';

const nameOf = (u: {
  uniqueId: string;
  username?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}) => userName(u);

const Pending = graphql(`
  query PendingAccounts {
    pendingUsers(first: 100) {
      total
      items {
        uniqueId
        username
        firstName
        lastName
        email
        pendingSince
      }
    }
  }
`);

const Activate = graphql(`
  mutation ActivateAccount($id: ID!) {
    activateUser(id: $id) {
      uniqueId
      pendingSince
    }
  }
`);

const Disable = graphql(`
  mutation DisableAccount($id: ID!) {
    disableUser(id: $id) {
      uniqueId
      disabled
    }
  }
`);

/**
 * Elevated administrators activate (or disable) the accounts a first OpenID sign-in made under
 * `OIDC_NEW_USERS=pending`, the longest waiting first.
 */
export function PendingAccounts({ isAdmin }: { isAdmin: boolean }) {
  const q = useQuery(Pending, {}, !isAdmin);
  const action = useAction();
  if (!isAdmin) {
    return (
      <section aria-labelledby="pa-title">
        <h1 id="pa-title">Pending accounts</h1>
        <p>Only platform administrators activate accounts: elevate to administrator first.</p>
      </section>
    );
  }
  const act = async (id: string, activate: boolean) => {
    const done = await action.run<unknown>(() =>
      activate ? request(Activate, { id }) : request(Disable, { id }),
    );
    if (done) q.reload();
  };
  const page = q.data?.pendingUsers;
  return (
    <section aria-labelledby="pa-title">
      <h1 id="pa-title">Pending accounts</h1>
      <p>People whose first sign-in created an account that awaits activation. Activate those you know.</p>
      {action.error && (
        <p role="alert" class="error">
          {action.error}
        </p>
      )}
      {page && page.total > page.items.length && (
        <p>
          {page.total} accounts await activation: the {page.items.length} waiting longest are shown.
        </p>
      )}
      <DataTable
        caption="Accounts awaiting activation"
        class="accounts"
        rows={page?.items}
        rowKey={(u) => u.uniqueId}
        loading={q.loading}
        error={q.error}
        empty="No account awaits activation."
        columns={[
          { header: 'Name', cell: nameOf },
          { header: 'Email', cell: (u) => u.email ?? '' },
          { header: 'Identifier', cell: (u) => <code>{u.uniqueId}</code> },
          { header: 'Waiting since', cell: (u) => (u.pendingSince ? u.pendingSince.slice(0, 10) : '') },
          {
            header: 'Actions',
            hiddenHeader: 'Actions',
            cell: (u) => (
              <>
                <button
                  type="button"
                  disabled={action.pending}
                  aria-label={`Activate ${nameOf(u)}`}
                  onClick={() => void act(u.uniqueId, true)}
                >
                  Activate
                </button>{' '}
                <button
                  type="button"
                  disabled={action.pending}
                  aria-label={`Disable ${nameOf(u)}`}
                  onClick={() => void act(u.uniqueId, false)}
                >
                  Disable
                </button>
              </>
            ),
          },
        ]}
      />
    </section>
  );
}
