import { useEffect, useRef, useState } from 'preact/hooks';
import { graphql } from '../gql';
import { request, upload } from '../client';
import { useAction, useQuery } from '../hooks';
import { formatBytes } from '../components/Fields';
import { ConfirmButton } from '../components/Confirm';
import { uploadResumable, RESUMABLE_FROM } from '../resumable';
import { subscribe } from '../live';
import { DiffView } from '../components/DiffView';
import { mergeTopLevel, replacedKeys } from '../components/json-diff';
import { FilePreview } from '../components/FilePreview';

/** The largest JSON file read in the page to preview its metadata merge. */
const JSON_PREVIEW_MAX = 2 * 1024 * 1024;

/**
 * A JSON file whose ingestion would replace existing top-level keys of `metadata` (the JSON
 * ingestor merges an object document on top-level keys): its document; null otherwise.
 */
async function jsonMerge(
  f: File,
  metadata: Record<string, unknown> | null,
): Promise<Record<string, unknown> | null> {
  if (!/\.json$/i.test(f.name) || f.size > JSON_PREVIEW_MAX || !metadata) return null;
  try {
    const doc: unknown = JSON.parse(await f.text());
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return null;
    const obj = doc as Record<string, unknown>;
    return replacedKeys(metadata, obj).length ? obj : null;
  } catch {
    return null;
  }
}

const FilesQuery = graphql(`
  query DatasetFiles($id: ID!) {
    dataset(id: $id) {
      uniqueId
      files(first: 100) {
        totalCount
        nodes {
          uniqueId
          filename
          size
          sha256
          storageBackend
          ingestionStatus
          downloadUrl
          latestIngestion {
            id
            status
            errorMessage
            bytesRead
            bytesTotal
          }
        }
      }
    }
  }
`);

const IngestionEvents = graphql(`
  subscription DatasetIngestionEvents($dataset: ID!) {
    ingestionProgress(dataset: $dataset) {
      type
      payload
    }
  }
`);

const AddFiles = graphql(`
  mutation AddDatasetFiles($dataset: ID!, $file: Upload!) {
    addDatasetFile(dataset: $dataset, file: $file) {
      created
      file {
        uniqueId
        ingestionStatus
      }
    }
  }
`);

const Ingest = graphql(`
  mutation RerunIngestion($fileId: ID!) {
    requestIngestion(fileId: $fileId) {
      id
      status
    }
  }
`);

const DeleteFile = graphql(`
  mutation DeleteDatasetFile($id: ID!) {
    deleteFile(id: $id)
  }
`);

/** Ingestion statuses that end a request (nothing more will happen without a re-run). */
export const FINAL_INGESTION = new Set([
  'complete',
  'failed',
  'not supported',
  'file not found',
  'not_requested',
]);

type Item = {
  key: string;
  name: string;
  size: number;
  state:
    'confirm' | 'skipped' | 'waiting' | 'hashing' | 'uploading' | 'retrying' | 'done' | 'present' | 'failed';
  loaded: number;
  message?: string;
  fileId?: string;
  /** a JSON file whose ingestion would replace existing top-level keys: the document, to show the diff */
  merge?: Record<string, unknown>;
};

const STATE_TEXT: Record<Item['state'], string> = {
  confirm: 'waiting for your confirmation',
  skipped: 'not uploaded',
  waiting: 'waiting',
  hashing: 'checking',
  uploading: 'uploading',
  retrying: 'connection lost, resuming',
  done: 'uploaded',
  present: 'already present',
  failed: 'failed',
};

/**
 * The files of a dataset: the table (ingestion status live, the failure reason, re-run, delete
 * with confirmation) and the drop zone (several files at once, each with its own progress;
 * large files through the resumable protocol, so a dropped connection resumes).
 */
export function DatasetFiles({
  id,
  canAdd,
  canDelete,
  metadata,
  onChange,
}: {
  id: string;
  canAdd: boolean;
  canDelete: boolean;
  /** the dataset's metadata now: a JSON file that would replace keys of it asks first */
  metadata: Record<string, unknown> | null;
  onChange: () => void;
}) {
  const q = useQuery(FilesQuery, { id });
  const action = useAction();
  const files = q.data?.dataset.files.nodes ?? [];
  const running = files.some((f) => f.ingestionStatus && !FINAL_INGESTION.has(f.ingestionStatus));
  const [live, setLive] = useState<'connecting' | 'live' | 'off'>('connecting');
  const [previewing, setPreviewing] = useState<string | null>(null);
  const reload = useRef(q.reload);
  reload.current = q.reload;
  // live status: the dataset's ingestion events (the subscription) read the files again
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = subscribe(
      IngestionEvents,
      { dataset: id },
      () => {
        setLive('live');
        clearTimeout(timer);
        timer = setTimeout(() => reload.current(), 150);
      },
      () => setLive('off'),
    );
    setLive('live');
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, [id]);
  // without the subscription (it failed): read again while a request is open
  useEffect(() => {
    if (!running || live !== 'off') return;
    const timer = setTimeout(() => q.reload(), 1000);
    return () => clearTimeout(timer);
  }, [running, live, q.data]);
  const after = () => {
    q.reload();
    onChange();
  };
  return (
    <section aria-labelledby="ds-files" data-live={live}>
      <h2 id="ds-files">Files ({q.data?.dataset.files.totalCount ?? '…'})</h2>
      {q.error && (
        <p role="alert" class="error">
          {q.error}
        </p>
      )}
      {files.length > 0 && (
        <div class="table-scroll">
          <table class="files">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Size</th>
                <th scope="col">SHA-256</th>
                <th scope="col">Storage</th>
                <th scope="col">Ingestion</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {files.map((f) => {
                const ing = f.latestIngestion;
                const status = f.ingestionStatus ?? '—';
                const pct =
                  ing?.bytesRead != null && ing.bytesTotal
                    ? ` ${Math.floor((100 * ing.bytesRead) / ing.bytesTotal)} %`
                    : '';
                return (
                  <tr key={f.uniqueId}>
                    <td>{f.filename}</td>
                    <td>{formatBytes(f.size)}</td>
                    <td>
                      <code class="hash" title={f.sha256 ?? ''}>
                        {f.sha256 ? `${f.sha256.slice(0, 12)}…` : ''}
                      </code>
                    </td>
                    <td>{f.storageBackend}</td>
                    <td class="ingestion">
                      <span class={`status status-${status.replace(/\W+/g, '-')}`}>
                        {status}
                        {status === 'started' ? pct : ''}
                      </span>
                      {ing?.errorMessage && <span class="reason">: {ing.errorMessage}</span>}
                    </td>
                    <td class="actions">
                      {f.downloadUrl ? (
                        <a href={f.downloadUrl} download={f.filename} aria-label={`Download ${f.filename}`}>
                          Download
                        </a>
                      ) : (
                        'remote'
                      )}
                      {f.downloadUrl && (
                        <button
                          type="button"
                          class="small"
                          aria-label={`Preview ${f.filename}`}
                          aria-pressed={previewing === f.uniqueId}
                          onClick={() => setPreviewing(previewing === f.uniqueId ? null : f.uniqueId)}
                        >
                          Preview
                        </button>
                      )}
                      {canAdd &&
                        f.downloadUrl &&
                        (!f.ingestionStatus || FINAL_INGESTION.has(f.ingestionStatus)) && (
                          <button
                            type="button"
                            class="small"
                            aria-label={`Re-run ingestion of ${f.filename}`}
                            disabled={action.pending}
                            onClick={() =>
                              void action
                                .run(() => request(Ingest, { fileId: f.uniqueId }))
                                .then((r) => r && after())
                            }
                          >
                            Re-run ingestion
                          </button>
                        )}
                      {canDelete && (
                        <ConfirmButton
                          label="Delete"
                          ariaLabel={`Delete ${f.filename}`}
                          question={`Delete ${f.filename} (${formatBytes(f.size)})? Its stored bytes are removed; this cannot be undone.`}
                          confirmLabel={`Delete ${f.filename}`}
                          disabled={action.pending}
                          onConfirm={() =>
                            action
                              .run(() => request(DeleteFile, { id: f.uniqueId }))
                              .then((r) => r && after())
                          }
                        />
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {previewing && files.some((f) => f.uniqueId === previewing) && (
        <FilePreview fileId={previewing} onClose={() => setPreviewing(null)} />
      )}
      {action.error && (
        <p role="alert" class="error">
          {action.error}
        </p>
      )}
      {canAdd && <DropUpload id={id} metadata={metadata} onUploaded={after} />}
    </section>
  );
}

/** Several files, dropped or picked: each uploads in turn with its own progress and outcome. */
export function DropUpload({
  id,
  metadata,
  onUploaded,
}: {
  id: string;
  metadata: Record<string, unknown> | null;
  onUploaded: () => void;
}) {
  const files = useRef(new Map<string, File>());
  const [items, setItems] = useState<Item[]>([]);
  const [over, setOver] = useState(false);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const input = useRef<HTMLInputElement>(null);
  const patch = (key: string, p: Partial<Item>) =>
    setItems((list) => list.map((it) => (it.key === key ? { ...it, ...p } : it)));

  const one = async (file: File, key: string) => {
    try {
      if (file.size >= RESUMABLE_FROM) {
        const r = await uploadResumable(id, file, {
          onHashing: () => patch(key, { state: 'hashing' }),
          onProgress: (loaded) => patch(key, { state: 'uploading', loaded }),
          onRetry: () => patch(key, { state: 'retrying' }),
        });
        if (r.existing) patch(key, { state: 'present', loaded: file.size, fileId: r.fileId });
        else {
          await request(Ingest, { fileId: r.fileId });
          patch(key, { state: 'done', loaded: file.size, fileId: r.fileId });
        }
      } else {
        patch(key, { state: 'uploading' });
        const r = await upload(AddFiles, { dataset: id, file }, 'file', file, (loaded) =>
          patch(key, { loaded }),
        );
        patch(key, {
          state: r.addDatasetFile.created ? 'done' : 'present',
          loaded: file.size,
          fileId: r.addDatasetFile.file.uniqueId,
        });
      }
    } catch (e) {
      patch(key, { state: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
    onUploaded();
  };

  const enqueue = (key: string) => {
    const f = files.current.get(key);
    // one at a time: the connection's bandwidth goes to the file in front
    if (f) queue.current = queue.current.then(() => one(f, key));
  };

  const add = async (list: FileList | File[] | null | undefined) => {
    const picked = [...(list ?? [])];
    if (!picked.length) return;
    const stamp = Date.now();
    const added: Item[] = await Promise.all(
      picked.map(async (f, i) => {
        const key = `${stamp}-${i}-${f.name}`;
        files.current.set(key, f);
        const merge = await jsonMerge(f, metadata);
        return {
          key,
          name: f.name,
          size: f.size,
          state: merge ? 'confirm' : 'waiting',
          loaded: 0,
          merge,
        } as Item;
      }),
    );
    setItems((cur) => [...cur, ...added]);
    for (const it of added) if (it.state === 'waiting') enqueue(it.key);
  };

  return (
    <div class="dropzone-wrap">
      <div
        class={`dropzone${over ? ' over' : ''}`}
        role="group"
        aria-labelledby="drop-label"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          void add(e.dataTransfer?.files);
        }}
      >
        <p id="drop-label">Drop files here, or</p>
        <label class="button-like">
          Choose files
          <input
            ref={input}
            class="visually-hidden"
            type="file"
            multiple
            onChange={(e) => {
              void add(e.currentTarget.files);
              e.currentTarget.value = '';
            }}
          />
        </label>
      </div>
      {items.length > 0 && (
        <ul class="upload-list" aria-label="Uploads">
          {items.map((it) => (
            <li key={it.key} class={`upload-${it.state}`}>
              <span class="upload-name">{it.name}</span>
              <progress
                aria-label={`Upload of ${it.name}`}
                max={it.size || 1}
                value={it.state === 'present' || it.state === 'done' ? it.size || 1 : it.loaded}
              />
              <span class="upload-state" role="status">
                {STATE_TEXT[it.state]}
                {it.state === 'uploading' || it.state === 'retrying'
                  ? ` ${formatBytes(it.loaded)} of ${formatBytes(it.size)}`
                  : ''}
                {it.message ? `: ${it.message}` : ''}
              </span>
              {it.state === 'confirm' && it.merge && (
                <div class="confirm" role="group" aria-label={`Confirm the metadata change of ${it.name}`}>
                  <p>
                    Ingesting {it.name} merges it into the metadata and replaces the existing{' '}
                    {replacedKeys(metadata, it.merge).join(', ')}. This is what will change:
                  </p>
                  <DiffView
                    before={metadata ?? {}}
                    after={mergeTopLevel(metadata, it.merge)}
                    label={`Metadata change of ${it.name}`}
                  />
                  <div class="buttons">
                    <button
                      type="button"
                      onClick={() => {
                        patch(it.key, { state: 'waiting', merge: undefined });
                        enqueue(it.key);
                      }}
                    >
                      Upload {it.name}
                    </button>
                    <button
                      type="button"
                      onClick={() => patch(it.key, { state: 'skipped', merge: undefined })}
                    >
                      Skip it
                    </button>
                  </div>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
