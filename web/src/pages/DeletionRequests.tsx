import { graphql } from '../gql';
import { request } from '../client';
import { useAction, useQuery } from '../hooks';
import { ConfirmButton } from '../components/Confirm';
import { DataTable } from '../components/DataTable';
import { userName } from '../components/Fields';

const Pending = graphql(`
  query PendingDeletionRequests {
    deletionRequests(first: 100, status: "pending") {
      nodes {
        id
        resourceId
        resourceType
        resourceName
        requesterId
        requester {
          uniqueId
          username
          firstName
          lastName
        }
        reason
        requestTime
      }
    }
  }
`);

const Review = graphql(`
  mutation ReviewDeletionRequest($id: Int!, $approve: Boolean!, $notes: String) {
    reviewDeletionRequest(id: $id, approve: $approve, reviewerNotes: $notes) {
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
  const review = async (id: number, approve: boolean, notes: string | null) => {
    if (await action.run(() => request(Review, { id, approve, notes }))) q.reload();
  };
  return (
    <section aria-labelledby="dr-title">
      <h1 id="dr-title">Pending deletion requests</h1>
      {action.error && (
        <p role="alert" class="error">
          {action.error}
        </p>
      )}
      <DataTable
        caption="Pending deletion requests"
        rows={q.data?.deletionRequests.nodes}
        rowKey={(r) => r.id}
        loading={q.loading}
        error={q.error}
        empty="No pending requests."
        columns={[
          {
            header: 'Record',
            cell: (r) => (
              <a
                href={`/${r.resourceType === 'sample' ? 'samples' : 'datasets'}/${encodeURIComponent(r.resourceId)}`}
              >
                {r.resourceName ?? r.resourceId}
              </a>
            ),
          },
          { header: 'Kind', cell: (r) => r.resourceType },
          { header: 'Requested by', cell: (r) => userName(r.requester) || r.requesterId },
          { header: 'On', cell: (r) => r.requestTime.slice(0, 10) },
          { header: 'Reason', cell: (r) => r.reason ?? '' },
          {
            header: 'Actions',
            hiddenHeader: 'Actions',
            cell: (r) => (
              <>
                <ConfirmButton
                  label="Approve"
                  ariaLabel={`Approve the deletion of ${r.resourceName ?? r.resourceId}`}
                  question={`Delete ${r.resourceName ?? r.resourceId} for good? Its files, metadata and links go with it; this cannot be undone.`}
                  confirmLabel="Approve and delete"
                  withNote="Note for the requester"
                  disabled={action.pending}
                  onConfirm={(note) => review(r.id, true, note)}
                />{' '}
                <ConfirmButton
                  label="Reject"
                  ariaLabel={`Reject the deletion of ${r.resourceName ?? r.resourceId}`}
                  question={`Reject the request to delete ${r.resourceName ?? r.resourceId}? The record stays.`}
                  confirmLabel="Reject the request"
                  withNote="Note for the requester"
                  disabled={action.pending}
                  onConfirm={(note) => review(r.id, false, note)}
                />
              </>
            ),
          },
        ]}
      />
    </section>
  );
}
