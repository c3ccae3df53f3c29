import { graphql } from '../gql';
import { request } from '../client';
import { useAction, useQuery } from '../hooks';

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
      {q.error && (
        <p role="alert" class="error">
          {q.error}
        </p>
      )}
      {action.error && (
        <p role="alert" class="error">
          {action.error}
        </p>
      )}
      {page?.items.length === 0 && <p>No account awaits activation.</p>}
      {page && page.items.length > 0 && (
        <table>
          <caption>
            {page.total} account{page.total === 1 ? '' : 's'} awaiting activation
            {page.total > page.items.length ? ` (the ${page.items.length} waiting longest)` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Identifier</th>
              <th scope="col">Waiting since</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((u) => {
              const name = [u.firstName, u.lastName].filter(Boolean).join(' ') || u.username || u.uniqueId;
              return (
                <tr key={u.uniqueId}>
                  <td>{name}</td>
                  <td>{u.email ?? ''}</td>
                  <td>
                    <code>{u.uniqueId}</code>
                  </td>
                  <td>{u.pendingSince ? u.pendingSince.slice(0, 10) : ''}</td>
                  <td>
                    <button
                      type="button"
                      disabled={action.pending}
                      aria-label={`Activate ${name}`}
                      onClick={() => void act(u.uniqueId, true)}
                    >
                      Activate
                    </button>{' '}
                    <button
                      type="button"
                      disabled={action.pending}
                      aria-label={`Disable ${name}`}
                      onClick={() => void act(u.uniqueId, false)}
                    >
                      Disable
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
