import { useState } from 'preact/hooks';
import { graphql } from '../gql';
import { request } from '../client';
import { useAction, useQuery } from '../hooks';
import { session } from '../session';
import { ConfirmButton } from '../components/Confirm';
import { DiffView } from '../components/DiffView';
import { showValue } from '../components/json-diff';
import { HistoryUndo } from '../components/HistoryUndo';

const HistoryQuery = graphql(`
  query RecordHistory($id: ID!) {
    resourceHistory(id: $id, first: 50) {
      nodes {
        uniqueId
        type
        time
        actorId
        payload
      }
    }
  }
`);

const VersionsQuery = graphql(`
  query MetadataVersions($id: ID!, $before: Int) {
    metadataVersions(id: $id, first: 50, before: $before) {
      items {
        version
        time
        actorId
        data
      }
      nextBefore
    }
  }
`);

const Restore = graphql(`
  mutation RestoreMetadataVersion($id: ID!, $version: Int!) {
    restoreMetadataVersion(id: $id, version: $version) {
      version
    }
  }
`);

type Version = { version: number; time: string; actorId?: string | null; data: Record<string, unknown> };

const when = (iso: string) => new Date(iso).toLocaleString();

function who(actorId: string | null | undefined): string {
  if (!actorId) return 'the service';
  return session.get()?.user?.unique_id === actorId ? 'you' : actorId;
}

/** What one event did, in words: field changes, the keys of a metadata change, a keyword… */
function EventWhat({
  type,
  payload,
  versions,
}: {
  type: string;
  payload: Record<string, unknown>;
  versions: Map<number, Version>;
}) {
  if (type.endsWith('.updated') && payload.changes && typeof payload.changes === 'object') {
    const changes = payload.changes as Record<string, { from: unknown; to: unknown }>;
    return (
      <ul class="diff">
        {Object.entries(changes).map(([field, c]) => (
          <li key={field} class="diff-changed">
            <code>{field}</code> {showValue(c.from)} → {showValue(c.to)}
          </li>
        ))}
      </ul>
    );
  }
  if (type === 'metadata.changed') {
    const version = typeof payload.version === 'number' ? payload.version : null;
    const after = version ? versions.get(version) : undefined;
    const before = version ? versions.get(version - 1) : undefined;
    const restored =
      typeof payload.restored_version === 'number' ? ` (restored version ${payload.restored_version})` : '';
    return (
      <>
        <p>
          Metadata {typeof payload.mode === 'string' ? payload.mode : 'changed'}
          {restored}
          {version ? `, version ${version}` : ''}: keys{' '}
          {((payload.keys as string[] | undefined) ?? []).join(', ')}
        </p>
        {after && (
          <DiffView
            before={before?.data ?? {}}
            after={after.data}
            label={`Metadata diff of version ${version}`}
          />
        )}
      </>
    );
  }
  const details = Object.entries(payload)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : showValue(v)}`)
    .join('; ');
  return <p>{details || '—'}</p>;
}

/**
 * A record's history and its metadata versions: who did what and when (the API's history, for
 * those with admin permission on the record), every metadata version with its diff from the one
 * before, and "Restore" of an earlier version as a new change (with `canRestore`).
 */
export function RecordHistory({
  id,
  canRestore,
  onRestored,
  kind,
}: {
  id: string;
  canRestore: boolean;
  onRestored: () => void;
  /** with it (and canRestore), each entry offers its undo: a batch's, or a field change reverted */
  kind?: 'dataset' | 'sample';
}) {
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="rec-history">
      <h2 id="rec-history">History</h2>
      {open ? (
        <HistoryBody id={id} canRestore={canRestore} onRestored={onRestored} kind={kind} />
      ) : (
        <button type="button" onClick={() => setOpen(true)}>
          Show history
        </button>
      )}
    </section>
  );
}

function HistoryBody({
  id,
  canRestore,
  onRestored,
  kind,
}: {
  id: string;
  canRestore: boolean;
  onRestored: () => void;
  kind?: 'dataset' | 'sample';
}) {
  const history = useQuery(HistoryQuery, { id });
  const versions = useQuery(VersionsQuery, { id, before: null });
  const action = useAction();
  const list: Version[] = versions.data?.metadataVersions.items ?? [];
  const byNumber = new Map(list.map((v) => [v.version, v]));
  const latest = list[0];
  const restore = async (version: number) => {
    if (await action.run(() => request(Restore, { id, version }))) {
      history.reload();
      versions.reload();
      onRestored();
    }
  };
  return (
    <>
      {history.error ? (
        <p class="notice">
          The list of changes is shown to those with admin permission on this record ({history.error}).
        </p>
      ) : !history.data ? (
        <p role="status">Loading…</p>
      ) : (
        <ol class="history" aria-label="Changes, newest first">
          {history.data.resourceHistory.nodes.map((e) => (
            <li key={e.uniqueId}>
              <p class="history-head">
                <strong>{e.type}</strong> · {who(e.actorId)} · <time dateTime={e.time}>{when(e.time)}</time>
              </p>
              <EventWhat type={e.type} payload={e.payload} versions={byNumber} />
              {canRestore && kind && (
                <HistoryUndo
                  recordId={id}
                  kind={kind}
                  type={e.type}
                  payload={e.payload}
                  onDone={() => {
                    history.reload();
                    versions.reload();
                    onRestored();
                  }}
                />
              )}
            </li>
          ))}
        </ol>
      )}
      <h3 id="rec-versions">Metadata versions</h3>
      {versions.error && (
        <p role="alert" class="error">
          {versions.error}
        </p>
      )}
      {versions.data && list.length === 0 && <p>No metadata has been written yet.</p>}
      <ol class="versions" aria-labelledby="rec-versions">
        {list.map((v) => (
          <li key={v.version}>
            <p class="history-head">
              <strong>Version {v.version}</strong>
              {v === latest ? ' (current)' : ''} · {who(v.actorId)} ·{' '}
              <time dateTime={v.time}>{when(v.time)}</time>
            </p>
            <DiffView
              before={byNumber.get(v.version - 1)?.data ?? {}}
              after={v.data}
              label={`Changes in version ${v.version}`}
            />
            {canRestore && v !== latest && (
              <ConfirmButton
                label={`Restore version ${v.version}`}
                question={`Restore version ${v.version}? The metadata becomes what it was then, as a new version; this diff will be applied:`}
                confirmLabel={`Restore version ${v.version}`}
                disabled={action.pending}
                onConfirm={() => restore(v.version)}
              >
                <DiffView
                  before={latest.data}
                  after={v.data}
                  label={`What restoring version ${v.version} changes`}
                />
              </ConfirmButton>
            )}
          </li>
        ))}
      </ol>
      {action.error && (
        <p role="alert" class="error">
          {action.error}
        </p>
      )}
    </>
  );
}
