import { useState } from 'preact/hooks';
import { graphql } from '../gql';
import type { UpdateDatasetInput } from '../gql/graphql';
import { request } from '../client';
import { useAction } from '../hooks';
import { EditFields } from '../components/EditFields';

const Update = graphql(`
  mutation UpdateDataset($id: ID!, $input: UpdateDatasetInput!) {
    updateDataset(id: $id, input: $input) {
      uniqueId
    }
  }
`);

const AddKeywordMutation = graphql(`
  mutation AddDatasetKeyword($id: ID!, $keyword: String!) {
    addDatasetKeyword(id: $id, keyword: $keyword) {
      keyword
    }
  }
`);

const RequestDeletionMutation = graphql(`
  mutation RequestDatasetDeletion($id: ID!, $reason: String) {
    requestDeletion(id: $id, reason: $reason) {
      id
      status
    }
  }
`);

const EDITABLE = [
  ['datasetName', 'Name'],
  ['measurement', 'Measurement'],
  ['dataType', 'Data type'],
  ['dataFormat', 'Data format'],
  ['sessionName', 'Session'],
  ['timestamp', 'Timestamp'],
] as const;

type Editable = Record<(typeof EDITABLE)[number][0], string | null | undefined> & { public: boolean };

function ActionError({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" class="error">
      {error}
    </p>
  ) : null;
}

/** Edit the updatable fields; only changed fields are sent. */
export function EditDataset({
  dataset,
  onDone,
}: {
  dataset: Editable & { uniqueId: string };
  onDone: () => void;
}) {
  return (
    <EditFields
      fields={EDITABLE}
      values={dataset}
      publicValue={dataset.public}
      save={(input: UpdateDatasetInput) => request(Update, { id: dataset.uniqueId, input })}
      onDone={onDone}
    />
  );
}

export function AddKeyword({ id, onDone }: { id: string; onDone: () => void }) {
  const [keyword, setKeyword] = useState('');
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!keyword.trim()) return;
    if (await action.run(() => request(AddKeywordMutation, { id, keyword: keyword.trim() }))) {
      setKeyword('');
      onDone();
    }
  };
  return (
    <form class="inline-form" onSubmit={(e) => void submit(e)}>
      <label>
        New keyword <input value={keyword} onInput={(e) => setKeyword(e.currentTarget.value)} />
      </label>
      <button type="submit" disabled={action.pending}>
        Add keyword
      </button>
      <ActionError error={action.error} />
    </form>
  );
}

/** Ask for the record's deletion (a dataset or a sample); a platform admin reviews it. */
export function RequestDeletion({ id, onDone }: { id: string; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    if (await action.run(() => request(RequestDeletionMutation, { id, reason: reason || null }))) onDone();
  };
  return (
    <section aria-labelledby="ds-delete">
      <h2 id="ds-delete">Deletion</h2>
      <form class="inline-form" onSubmit={(e) => void submit(e)}>
        <label>
          Reason <input value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={action.pending}>
          Request deletion
        </button>
        <ActionError error={action.error} />
      </form>
    </section>
  );
}
