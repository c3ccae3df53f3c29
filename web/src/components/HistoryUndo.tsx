import { graphql } from '../gql';
import { request } from '../client';
import { useAction } from '../hooks';
import { ConfirmButton } from './Confirm';
import { showValue } from './json-diff';

const UndoBatch = graphql(`
  mutation HistoryUndoBatch($id: ID!) {
    undoDatasetBatch(id: $id) {
      id
      status
    }
  }
`);

const RevertDataset = graphql(`
  mutation HistoryRevertDataset($id: ID!, $input: UpdateDatasetInput!) {
    updateDataset(id: $id, input: $input) {
      uniqueId
    }
  }
`);

const RevertSample = graphql(`
  mutation HistoryRevertSample($id: ID!, $input: UpdateSampleInput!) {
    updateSample(id: $id, input: $input) {
      uniqueId
    }
  }
`);

/**
 * Undo from a history entry (issue 27, item 4), with a confirmation: an entry written by a batch
 * edit offers "Undo batch …" (the API's `undoDatasetBatch`: the whole batch, refused when a value
 * it set has changed since), a field change offers "Revert" (the `from` values written back as a
 * new change, by the record's own update, with its rules).
 */
export function HistoryUndo({
  recordId,
  kind,
  type,
  payload,
  onDone,
}: {
  recordId: string;
  kind: 'dataset' | 'sample';
  type: string;
  payload: Record<string, unknown>;
  onDone: () => void;
}) {
  const action = useAction();
  const batch = payload.batch_id;
  const changes =
    type === `${kind}.updated` && payload.changes && typeof payload.changes === 'object'
      ? (payload.changes as Record<string, { from: unknown; to: unknown }>)
      : null;
  const done = (ok: unknown) => {
    if (ok) onDone();
  };
  let button = null;
  if ((typeof batch === 'string' || typeof batch === 'number') && payload.undo !== true) {
    const id = String(batch);
    button = (
      <ConfirmButton
        label="Undo this batch"
        ariaLabel={`Undo this batch (${id})`}
        question={`Undo batch ${id}? Every record it changed gets back the value it had before, as one step; refused, with nothing changed, if any of those values has changed since.`}
        confirmLabel={`Undo batch ${id}`}
        disabled={action.pending}
        onConfirm={() => action.run(() => request(UndoBatch, { id })).then(done)}
      />
    );
  } else if (changes && Object.keys(changes).length > 0) {
    const input = Object.fromEntries(Object.entries(changes).map(([f, c]) => [f, c.from]));
    const words = Object.entries(changes)
      .map(([f, c]) => `${f} back to ${showValue(c.from)}`)
      .join(', ');
    button = (
      <ConfirmButton
        label="Revert this change"
        ariaLabel={`Revert this change (${Object.keys(changes).join(', ')})`}
        question={`Revert this change? A new change sets ${words}.`}
        confirmLabel="Revert"
        disabled={action.pending}
        onConfirm={() =>
          action
            .run((): Promise<unknown> =>
              kind === 'dataset'
                ? request(RevertDataset, { id: recordId, input })
                : request(RevertSample, { id: recordId, input }),
            )
            .then(done)
        }
      />
    );
  }
  if (!button) return null;
  return (
    <div class="history-undo">
      {button}
      {action.error && (
        <p role="alert" class="error">
          {action.error}
        </p>
      )}
    </div>
  );
}
