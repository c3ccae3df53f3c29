import { useState } from 'preact/hooks';
import { graphql } from '../gql';
import type { BatchFieldsFragment, BatchKind, DatasetFilterInput } from '../gql/graphql';
import { request } from '../client';

graphql(`
  fragment BatchFields on Batch {
    id
    status
    operation
    targetCount
    changedCount
    refusedCount
    refused {
      uniqueId
      name
      reason
    }
    sample {
      uniqueId
      name
      before
      after
      changes
    }
    token
    canApply
    canUndo
    createdAt
  }
`);

const PreviewBatch = graphql(`
  mutation PreviewBatch($targets: BatchTargetsInput!, $operation: BatchOperationInput!) {
    previewDatasetBatch(targets: $targets, operation: $operation) {
      ...BatchFields
    }
  }
`);

const ApplyBatch = graphql(`
  mutation ApplyBatch($id: ID!, $token: String!) {
    applyDatasetBatch(id: $id, token: $token) {
      ...BatchFields
    }
  }
`);

const UndoBatch = graphql(`
  mutation UndoBatch($id: ID!) {
    undoDatasetBatch(id: $id) {
      ...BatchFields
    }
  }
`);

export const RecentBatches = graphql(`
  query RecentBatches {
    datasetBatches(first: 10) {
      ...BatchFields
    }
  }
`);

const KINDS: { kind: BatchKind; label: string }[] = [
  { kind: 'add_keyword', label: 'Add a keyword' },
  { kind: 'remove_keyword', label: 'Remove a keyword' },
  { kind: 'set_field', label: 'Set a field' },
  { kind: 'merge_metadata', label: 'Merge metadata' },
  { kind: 'grant', label: 'Grant access' },
  { kind: 'set_public', label: 'Make public or private' },
];

const FIELDS = [
  ['dataset_name', 'Name'],
  ['measurement', 'Measurement'],
  ['data_type', 'Data type'],
  ['data_format', 'Data format'],
  ['session_name', 'Session'],
  ['timestamp', 'Timestamp'],
] as const;

/** A value of a batch item as one line of text. */
function shown(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (v === true) return 'yes';
  if (v === false) return 'no';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/** What an operation does, in words (the stored operation's snake_case fields). */
export function describe(op: Record<string, unknown>): string {
  switch (op.kind) {
    case 'add_keyword':
      return `add keyword “${String(op.keyword)}”`;
    case 'remove_keyword':
      return `remove keyword “${String(op.keyword)}”`;
    case 'set_field':
      return `set ${String(op.field)} to “${shown(op.value)}”`;
    case 'merge_metadata':
      return `merge metadata keys ${Object.keys(op.metadata as object).join(', ')}`;
    case 'grant':
      return `grant ${String(op.permission)} to ${String(op.principal_type)} ${String(op.principal_name ?? op.principal_id)}`;
    case 'set_public':
      return op.public ? 'make public' : 'make private';
    default:
      return String(op.kind);
  }
}

/** The result of a preview, an apply or an undo: counts and a sample of the changes. */
export function BatchSummary({ batch }: { batch: BatchFieldsFragment }) {
  const op = batch.operation;
  return (
    <div class="batch-summary">
      <p>
        <strong>{describe(op)}</strong>: {batch.changedCount} of {batch.targetCount} dataset
        {batch.targetCount === 1 ? '' : 's'} change
        {batch.targetCount - batch.changedCount > 0 &&
          ` (${batch.targetCount - batch.changedCount} already have it)`}
        {batch.status === 'applied' && ' — applied'}
        {batch.status === 'undone' && ' — undone'}
      </p>
      {batch.sample.length > 0 && (
        <div class="batch-sample">
          <table>
            <caption>
              {batch.sample.length < batch.changedCount
                ? `The first ${batch.sample.length} changes`
                : 'Every change'}
            </caption>
            <thead>
              <tr>
                <th scope="col">Dataset</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {batch.sample.map((i) => (
                <tr key={i.uniqueId}>
                  <td>
                    <a href={`/datasets/${encodeURIComponent(i.uniqueId)}`}>{i.name ?? i.uniqueId}</a>
                  </td>
                  <td>{shown(i.before)}</td>
                  <td>{shown(i.after)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/**
 * Edit many datasets at once: the selected rows, or every result of the search; choose the
 * operation, see the preview, apply, then undo the whole batch (docs/web-app.md, "Edit many at
 * once").
 */
export function BatchPanel({
  ids,
  all,
  filter,
  total,
  onChanged,
}: {
  ids: string[];
  all: boolean;
  filter: DatasetFilterInput;
  total: number | undefined;
  onChanged: () => void;
}) {
  const [kind, setKind] = useState<BatchKind>('add_keyword');
  const [text, setText] = useState('');
  const [field, setField] = useState<string>('measurement');
  const [principalType, setPrincipalType] = useState('user');
  const [permission, setPermission] = useState('viewer');
  const [makePublic, setMakePublic] = useState(true);
  const [batch, setBatch] = useState<BatchFieldsFragment | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const count = all ? (total ?? 0) : ids.length;

  const run = async (step: () => Promise<BatchFieldsFragment>, changed = false) => {
    setBusy(true);
    setError(null);
    try {
      setBatch(await step());
      if (changed) onChanged();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const operation = () => {
    switch (kind) {
      case 'add_keyword':
      case 'remove_keyword':
        return { kind, keyword: text };
      case 'set_field':
        return { kind, field, value: text === '' ? null : text };
      case 'merge_metadata': {
        let metadata: unknown;
        try {
          metadata = JSON.parse(text || '{}');
        } catch {
          throw new Error('The metadata must be a JSON object, e.g. {"temperature": "300 K"}');
        }
        return { kind, metadata: metadata as Record<string, unknown> };
      }
      case 'grant':
        return { kind, principalType, principal: text, permission };
      case 'set_public':
        return { kind, public: makePublic };
    }
  };

  const preview = () =>
    run(
      async () =>
        (
          await request(PreviewBatch, {
            targets: all ? { search: filter } : { datasetIds: ids },
            operation: operation(),
          })
        ).previewDatasetBatch,
    );

  return (
    <section class="batch" aria-labelledby="batch-title">
      <h2 id="batch-title">
        Edit {count} selected dataset{count === 1 ? '' : 's'}
      </h2>
      <form
        class="batch-form"
        onSubmit={(e) => {
          e.preventDefault();
          void preview();
        }}
      >
        <label>
          Change
          <select
            aria-label="Change"
            value={kind}
            onChange={(e) => {
              setKind(e.currentTarget.value as BatchKind);
              setText('');
              setBatch(null);
            }}
          >
            {KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
        {kind === 'set_field' && (
          <label>
            Field
            <select aria-label="Field" value={field} onChange={(e) => setField(e.currentTarget.value)}>
              {FIELDS.map(([wire, label]) => (
                <option key={wire} value={wire}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        )}
        {kind === 'grant' && (
          <>
            <label>
              To a
              <select
                aria-label="To a"
                value={principalType}
                onChange={(e) => setPrincipalType(e.currentTarget.value)}
              >
                <option value="user">user</option>
                <option value="project">project</option>
                <option value="group">group</option>
              </select>
            </label>
            <label>
              Level
              <select
                aria-label="Level"
                value={permission}
                onChange={(e) => setPermission(e.currentTarget.value)}
              >
                {['viewer', 'contributor', 'editor', 'admin'].map((p) => (
                  <option key={p}>{p}</option>
                ))}
              </select>
            </label>
          </>
        )}
        {kind === 'set_public' ? (
          <label>
            Visibility
            <select
              value={makePublic ? 'public' : 'private'}
              onChange={(e) => setMakePublic(e.currentTarget.value === 'public')}
            >
              <option value="public">public</option>
              <option value="private">private</option>
            </select>
          </label>
        ) : kind === 'merge_metadata' ? (
          <label class="batch-wide">
            Metadata (JSON)
            <textarea
              rows={3}
              value={text}
              placeholder='{"temperature": "300 K"}'
              onInput={(e) => setText(e.currentTarget.value)}
            />
          </label>
        ) : (
          <label>
            {kind === 'grant' ? 'Who' : kind === 'set_field' ? 'New value' : 'Keyword'}
            <input
              value={text}
              placeholder={kind === 'grant' ? 'ORCID, username or email' : undefined}
              onInput={(e) => setText(e.currentTarget.value)}
            />
          </label>
        )}
        <button type="submit" disabled={busy || count === 0}>
          Preview
        </button>
      </form>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {batch && (
        <div role="status">
          <BatchSummary batch={batch} />
          {batch.status === 'previewed' && (
            <button
              type="button"
              disabled={busy || !batch.canApply}
              onClick={() =>
                void run(
                  async () =>
                    (await request(ApplyBatch, { id: batch.id, token: batch.token ?? '' })).applyDatasetBatch,
                  true,
                )
              }
            >
              Apply to {batch.changedCount} dataset{batch.changedCount === 1 ? '' : 's'}
            </button>
          )}
          {batch.canUndo && (
            <button
              type="button"
              disabled={busy}
              onClick={() =>
                void run(async () => (await request(UndoBatch, { id: batch.id })).undoDatasetBatch, true)
              }
            >
              Undo this batch
            </button>
          )}
        </div>
      )}
    </section>
  );
}

/** The caller's recent batches, each with its undo while it stands applied. */
export function BatchHistory({
  batches,
  onChanged,
}: {
  batches: BatchFieldsFragment[];
  onChanged: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  if (!batches.length) return null;
  return (
    <details class="batch-history">
      <summary>Your recent batch edits</summary>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <ul>
        {batches
          .filter((b) => b.status !== 'previewed')
          .map((b) => (
            <li key={b.id}>
              <time dateTime={b.createdAt}>{new Date(b.createdAt).toLocaleString()}</time>:{' '}
              {describe(b.operation)} on {b.changedCount} dataset
              {b.changedCount === 1 ? '' : 's'} ({b.status}){' '}
              {b.canUndo && (
                <button
                  type="button"
                  onClick={() =>
                    void request(UndoBatch, { id: b.id })
                      .then(onChanged)
                      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
                  }
                >
                  Undo
                </button>
              )}
            </li>
          ))}
      </ul>
    </details>
  );
}
