import { graphql } from '../gql';
import { request } from '../client';
import { useAction, useQuery } from '../hooks';

const Pending = graphql(`
  query PendingDeletionRequests {
    deletionRequests(first: 100, status: "pending") {
      nodes {
        id
        resourceId
        resourceType
        resourceName
        requesterId
        reason
        requestTime
      }
    }
  }
`);

const Review = graphql(`
  mutation ReviewDeletionRequest($id: Int!, $approve: Boolean!) {
    reviewDeletionRequest(id: $id, approve: $approve) {
      id
      status
    }
  }
`);

/** Platform admins approve or reject pending deletion requests. */
export function DeletionRequests({ isAdmin }: { isAdmin: boolean }) {
  const q = useQuery(Pending, {}, !isAdmin);
  const action = useAction();
  if (!isAdmin) return <p>Only platform administrators review deletion requests.</p>;
  const review = async (id: number, approve: boolean) => {
    if (await action.run(() => request(Review, { id, approve }))) q.reload();
  };
  return (
    <section aria-labelledby="dr-title">
      <h1 id="dr-title">Pending deletion requests</h1>
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
      {q.data?.deletionRequests.nodes.length === 0 && <p>No pending requests.</p>}
      <ul class="requests">
        {q.data?.deletionRequests.nodes.map((r) => (
          <li key={r.id}>
            <a
              href={`/${r.resourceType === 'sample' ? 'samples' : 'datasets'}/${encodeURIComponent(r.resourceId)}`}
            >
              {r.resourceName ?? r.resourceId}
            </a>{' '}
            ({r.resourceType}), requested by {r.requesterId} on {r.requestTime.slice(0, 10)}
            {r.reason ? `: ${r.reason}` : ''}{' '}
            <button type="button" disabled={action.pending} onClick={() => void review(r.id, true)}>
              Approve
            </button>{' '}
            <button type="button" disabled={action.pending} onClick={() => void review(r.id, false)}>
              Reject
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
