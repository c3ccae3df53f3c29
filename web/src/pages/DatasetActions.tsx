import { useEffect, useState } from 'preact/hooks';
import { graphql } from '../gql';
import type { UpdateDatasetInput } from '../gql/graphql';
import { request, upload } from '../client';
import { useAction } from '../hooks';
import { formatBytes } from '../components/Fields';
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

const AddFile = graphql(`
  mutation AddDatasetFile($dataset: ID!, $file: Upload!) {
    addDatasetFile(dataset: $dataset, file: $file) {
      created
      file {
        uniqueId
        ingestionStatus
      }
    }
  }
`);

const FileStatus = graphql(`
  query FileIngestion($id: ID!) {
    file(id: $id) {
      uniqueId
      ingestionStatus
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

const FINAL = new Set(['complete', 'failed', 'not supported', 'file not found', 'not_requested']);

/** Upload a file with a progress bar, then follow its ingestion until it ends. */
export function UploadFile({ id, onDone }: { id: string; onDone: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null);
  const [ingestion, setIngestion] = useState<{ fileId: string; status: string | null } | null>(null);
  const action = useAction();
  useEffect(() => {
    if (!ingestion || (ingestion.status && FINAL.has(ingestion.status))) return;
    const timer = setTimeout(() => {
      void request(FileStatus, { id: ingestion.fileId }).then(
        (r) => {
          setIngestion({ fileId: ingestion.fileId, status: r.file.ingestionStatus ?? null });
          if (r.file.ingestionStatus && FINAL.has(r.file.ingestionStatus)) onDone();
        },
        () => setIngestion({ ...ingestion, status: 'unknown (status check failed)' }),
      );
    }, 500);
    return () => clearTimeout(timer);
  }, [ingestion, onDone]);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!file) return;
    setIngestion(null);
    setProgress({ loaded: 0, total: file.size });
    const r = await action.run(() =>
      upload(AddFile, { dataset: id, file }, 'file', file, (loaded, total) => setProgress({ loaded, total })),
    );
    if (r) {
      setIngestion({
        fileId: r.addDatasetFile.file.uniqueId,
        status: r.addDatasetFile.file.ingestionStatus ?? null,
      });
      onDone();
    }
  };
  return (
    <form class="upload" onSubmit={(e) => void submit(e)}>
      <label>
        Add a file <input type="file" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
      </label>
      <button type="submit" disabled={!file || action.pending}>
        Upload
      </button>
      {progress && (
        <div class="progress">
          <label for="upload-progress">Upload</label>
          <progress id="upload-progress" max={progress.total || 1} value={progress.loaded} />
          <span>
            {formatBytes(progress.loaded)} of {formatBytes(progress.total)}
          </span>
        </div>
      )}
      {ingestion && (
        <p role="status" class="ingestion-status">
          Ingestion: {ingestion.status ?? 'not requested'}
        </p>
      )}
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
