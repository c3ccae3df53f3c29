import { graphql } from '../gql';
import { request } from '../client';
import { useAction } from '../hooks';
import { session } from '../session';
import { ConfirmButton } from '../components/Confirm';
import { userName } from '../components/Fields';

const RemoveKeyword = graphql(`
  mutation RemoveDatasetKeyword($id: ID!, $keyword: String!) {
    removeDatasetKeyword(id: $id, keyword: $keyword)
  }
`);

const Withdraw = graphql(`
  mutation WithdrawDeletionRequest($id: Int!, $note: String) {
    withdrawDeletionRequest(id: $id, note: $note)
  }
`);

function ActionError({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" class="error">
      {error}
    </p>
  ) : null;
}

/** A dataset's keywords as links, each with "Remove" (after a confirmation) for editors. */
export function KeywordChips({
  id,
  keywords,
  canRemove,
  onDone,
}: {
  id: string;
  keywords: readonly string[];
  canRemove: boolean;
  onDone: () => void;
}) {
  const action = useAction();
  if (!keywords.length) return <p>No keywords.</p>;
  return (
    <>
      <ul class="chips">
        {keywords.map((k) => (
          <li key={k}>
            <a href={`/?keyword=${encodeURIComponent(k)}`}>{k}</a>
            {canRemove && (
              <ConfirmButton
                label="Remove"
                ariaLabel={`Remove keyword ${k}`}
                question={`Remove the keyword "${k}" from this dataset?`}
                confirmLabel={`Remove ${k}`}
                disabled={action.pending}
                onConfirm={() =>
                  action
                    .run(() => request(RemoveKeyword, { id, keyword: k }))
                    .then((r) => r !== undefined && onDone())
                }
              />
            )}
          </li>
        ))}
      </ul>
      <ActionError error={action.error} />
    </>
  );
}

/** The pending deletion request of a record, with "Withdraw" for the one who asked. */
export function PendingDeletion({
  request: r,
  onDone,
}: {
  request: {
    id: number;
    status: string;
    reason?: string | null;
    requestTime: string;
    requesterId: string;
    requester?: Parameters<typeof userName>[0];
  };
  onDone: () => void;
}) {
  const action = useAction();
  const mine = session.get()?.user?.unique_id === r.requesterId;
  return (
    <div class="notice" role="note">
      <p>
        Deletion {r.status} (request {r.id}, by {userName(r.requester) || r.requesterId},{' '}
        {new Date(r.requestTime).toLocaleDateString()}){r.reason ? `: ${r.reason}` : ''}
      </p>
      {mine && r.status === 'pending' && (
        <ConfirmButton
          label="Withdraw the request"
          question="Withdraw this deletion request? The record stays, and shows in lists and searches again."
          confirmLabel="Withdraw"
          withNote="Why"
          disabled={action.pending}
          onConfirm={(note) =>
            action.run(() => request(Withdraw, { id: r.id, note })).then((ok) => ok !== undefined && onDone())
          }
        />
      )}
      <ActionError error={action.error} />
    </div>
  );
}
