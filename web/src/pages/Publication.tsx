import { useRef, useState } from 'preact/hooks';
import { When } from '../components/When';
import { graphql } from '../gql';
import { request } from '../client';
import { useAction, useQuery } from '../hooks';
import { navigate, replaceAddress, useLocation } from '../router';
import { reasonProblem } from './publication-form';

/**
 * What this page and the publish form editing a draft (Publish.tsx, `PublicationToEdit`) both
 * read of a publication: its state, whether the caller may change it, its description and its
 * datasets. Each query adds what only it shows.
 */
graphql(`
  fragment PublicationDescription on Publication {
    id
    state
    canChange
    title
    description
    creators {
      name
      orcid
      affiliations {
        name
        rorId
      }
    }
    license
    keywords
    version
    embargoUntil
    datasets {
      datasetId
      name
    }
  }
`);

const PublicationQuery = graphql(`
  query PublicationPage($id: ID!) {
    publication(id: $id) {
      ...PublicationDescription
      citation
      doi
      registrationState
      registrationError
      publishedAt
      withdrawnAt
      withdrawalReason
      datasets {
        fileCount
        size
      }
      manifest {
        datasetId
        name
        files {
          size
        }
      }
      previousVersion {
        id
        title
        version
      }
      nextVersion {
        id
        state
        version
      }
    }
  }
`);

const PublishPublication = graphql(`
  mutation PublishPublication($id: ID!) {
    publishPublication(id: $id) {
      id
    }
  }
`);

const NewPublicationVersion = graphql(`
  mutation NewPublicationVersion($id: ID!) {
    newPublicationVersion(id: $id) {
      id
    }
  }
`);

const WithdrawPublication = graphql(`
  mutation WithdrawPublication($id: ID!, $reason: String!) {
    withdrawPublication(id: $id, reason: $reason) {
      id
    }
  }
`);

const PublicationsQuery = graphql(`
  query PublicationList($title: String, $state: String, $first: Int) {
    publications(title: $title, state: $state, first: $first) {
      total
      items {
        id
        title
        state
        version
        doi
        publishedAt
        creationTime
      }
    }
  }
`);

/** Bytes for people (binary units, one decimal). */
export function size(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${bytes} bytes` : `${v.toFixed(1)} ${units[u]}`;
}

const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '');

/** A confirmation that runs `onConfirm` only after a second click; Escape or Cancel closes it. */
function Confirmed({
  label,
  question,
  confirmLabel,
  reason,
  onConfirm,
}: {
  label: string;
  question: string;
  confirmLabel: string;
  /** a required reason, checked by the service's rule before anything is sent */
  reason?: string;
  onConfirm: (reason: string) => Promise<unknown>;
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    setText('');
    setProblem(null);
    opener.current?.focus();
  };
  if (!open)
    return (
      <button ref={opener} type="button" onClick={() => setOpen(true)}>
        {label}
      </button>
    );
  return (
    <div
      class="confirm"
      role="group"
      aria-label={`Confirm: ${label}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') close();
      }}
    >
      <p>{question}</p>
      {reason && (
        <div class="field">
          <label for="confirm-reason">{reason}</label>
          <textarea
            id="confirm-reason"
            rows={3}
            value={text}
            aria-required="true"
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'confirm-reason-err' : undefined}
            onInput={(e) => setText(e.currentTarget.value)}
            ref={(el) => el?.focus()}
          />
          {problem && (
            <span id="confirm-reason-err" class="error field-error">
              {problem}
            </span>
          )}
        </div>
      )}
      <div class="buttons">
        <button
          type="button"
          class="danger"
          disabled={busy}
          onClick={() => {
            const bad = reason ? reasonProblem(text) : null;
            setProblem(bad);
            if (bad) return;
            setBusy(true);
            void onConfirm(text.trim()).finally(() => {
              setBusy(false);
              setOpen(false);
            });
          }}
        >
          {confirmLabel}
        </button>
        <button type="button" onClick={close}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/** `/publish/{id}`: a draft (to edit and publish), a published one (its citation, DOI, new version, withdraw) or a tombstone. */
export function PublicationManagePage({ id }: { id: string }) {
  const q = useQuery(PublicationQuery, { id });
  const action = useAction();
  if (q.error)
    return (
      <p role="alert" class="error">
        {q.error}
      </p>
    );
  if (!q.data) return <p role="status">Loading…</p>;
  const p = q.data.publication;
  const landing = `/publications/${encodeURIComponent(p.id)}`;
  const files = p.datasets.reduce((n, d) => n + d.fileCount, 0);
  const bytes = p.datasets.reduce((n, d) => n + d.size, 0);
  const frozen = p.manifest ?? [];
  const frozenFiles = frozen.reduce((n, d) => n + d.files.length, 0);
  const frozenBytes = frozen.reduce((n, d) => n + d.files.reduce((m, f) => m + f.size, 0), 0);
  return (
    <article aria-labelledby="pub-title" class="publication">
      <h1 id="pub-title">{p.title}</h1>
      <p class="sub">
        <span class={`badge state-${p.state}`}>{p.state}</span>
        {p.version && <> · Version {p.version}</>}
        {p.publishedAt && <> · published {day(p.publishedAt)}</>}
        {p.state !== 'draft' && (
          <>
            {' '}
            · <a href={landing}>Landing page</a>
          </>
        )}
      </p>
      {action.error && (
        <p role="alert" class="error">
          {action.error}
        </p>
      )}
      {p.state === 'withdrawn' && (
        <section class="tombstone" aria-labelledby="pub-withdrawn">
          <h2 id="pub-withdrawn">Withdrawn {day(p.withdrawnAt)}</h2>
          <p>{p.withdrawalReason}</p>
        </section>
      )}
      {p.state !== 'draft' && (
        <section aria-labelledby="pub-cite">
          <h2 id="pub-cite">Cite as</h2>
          <p class="citation">{p.citation}</p>
        </section>
      )}
      {(p.doi || p.registrationState !== 'none') && (
        <p>
          DOI {p.doi ? <code>{p.doi}</code> : 'none'} · registration: {p.registrationState}
          {p.registrationError && (
            <span role="alert" class="error">
              {' '}
              DataCite refused it: {p.registrationError}
            </span>
          )}
        </p>
      )}
      <p class="description">{p.description}</p>
      <dl class="fields">
        <div>
          <dt>Creators</dt>
          <dd>
            {p.creators.map((c, i) => (
              <span key={i}>
                {i > 0 && '; '}
                {c.name}
                {c.orcid && <> (ORCID {c.orcid})</>}
                {c.affiliations.length > 0 && <> · {c.affiliations.map((a) => a.name).join(', ')}</>}
              </span>
            ))}
          </dd>
        </div>
        <div>
          <dt>License</dt>
          <dd>{p.license}</dd>
        </div>
        {p.keywords.length > 0 && (
          <div>
            <dt>Keywords</dt>
            <dd>{p.keywords.join(', ')}</dd>
          </div>
        )}
        {p.embargoUntil && (
          <div>
            <dt>Files embargoed until</dt>
            <dd>
              <When iso={p.embargoUntil} />
            </dd>
          </div>
        )}
      </dl>
      {p.state === 'draft' ? (
        <section aria-labelledby="pub-manifest">
          <h2 id="pub-manifest">What publishing will freeze</h2>
          <p data-testid="manifest-summary">
            {p.datasets.length} dataset{p.datasets.length === 1 ? '' : 's'}, {files} file
            {files === 1 ? '' : 's'}, {size(bytes)}: their names, sizes and SHA-256 as they are when you
            publish.
          </p>
          <DatasetTable
            rows={p.datasets.map((d) => ({
              id: d.datasetId,
              name: d.name,
              files: d.fileCount,
              size: d.size,
            }))}
          />
        </section>
      ) : (
        p.manifest && (
          <section aria-labelledby="pub-manifest">
            <h2 id="pub-manifest">Frozen manifest</h2>
            <p data-testid="manifest-summary">
              {frozen.length} dataset{frozen.length === 1 ? '' : 's'}, {frozenFiles} file
              {frozenFiles === 1 ? '' : 's'}, {size(frozenBytes)}
            </p>
            <DatasetTable
              rows={frozen.map((d) => ({
                id: d.datasetId,
                name: d.name,
                files: d.files.length,
                size: d.files.reduce((m, f) => m + f.size, 0),
              }))}
            />
          </section>
        )
      )}
      {(p.previousVersion || p.nextVersion) && (
        <p>
          {p.previousVersion && (
            <>
              Previous version:{' '}
              <a href={`/publish/${encodeURIComponent(p.previousVersion.id)}`}>
                {p.previousVersion.title}
                {p.previousVersion.version && ` (${p.previousVersion.version})`}
              </a>{' '}
            </>
          )}
          {p.nextVersion && (
            <>
              Next version:{' '}
              <a href={`/publish/${encodeURIComponent(p.nextVersion.id)}`}>
                {p.nextVersion.version ?? p.nextVersion.id} ({p.nextVersion.state})
              </a>
            </>
          )}
        </p>
      )}
      {p.canChange && (
        <div class="buttons">
          {p.state === 'draft' && (
            <>
              <a class="button" href={`/publish/${encodeURIComponent(p.id)}/edit`}>
                Edit the draft
              </a>
              <Confirmed
                label="Publish"
                question={`Publishing freezes the metadata and the manifest of ${files} file${files === 1 ? '' : 's'}; it cannot be undone (only withdrawn, which leaves a tombstone).`}
                confirmLabel="Confirm: publish"
                onConfirm={async () => {
                  await action.run(() => request(PublishPublication, { id: p.id }));
                  q.reload();
                }}
              />
            </>
          )}
          {p.state === 'published' && !p.nextVersion && (
            <button
              type="button"
              disabled={action.pending}
              onClick={() =>
                void action
                  .run(() => request(NewPublicationVersion, { id: p.id }))
                  .then((r) => r && navigate(`/publish/${encodeURIComponent(r.newPublicationVersion.id)}`))
              }
            >
              New version
            </button>
          )}
          {p.state === 'published' && (
            <Confirmed
              label="Withdraw"
              question="Withdrawing leaves a tombstone with the citation and your reason; the files are no longer listed. It cannot be undone."
              confirmLabel="Confirm: withdraw"
              reason="Reason (required, shown on the tombstone)"
              onConfirm={async (reason) => {
                await action.run(() => request(WithdrawPublication, { id: p.id, reason }));
                q.reload();
              }}
            />
          )}
        </div>
      )}
    </article>
  );
}

function DatasetTable({
  rows,
}: {
  rows: { id: string; name: string | null | undefined; files: number; size: number }[];
}) {
  return (
    <div class="table-scroll">
      <table class="results">
        <caption class="visually-hidden">Datasets</caption>
        <thead>
          <tr>
            <th scope="col">Dataset</th>
            <th scope="col">Files</th>
            <th scope="col">Size</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td>
                <a href={`/datasets/${encodeURIComponent(r.id)}`}>{r.name ?? r.id}</a>
              </td>
              <td>{r.files}</td>
              <td>{size(r.size)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const STATES = ['', 'draft', 'published', 'withdrawn'] as const;

/** `/publications`: search by title; drafts only for those who may see them (the service decides). */
export function PublicationsPage() {
  const { query } = useLocation();
  const [title, setTitle] = useState(query.get('title') ?? '');
  const [state, setState] = useState(query.get('state') ?? '');
  const [first, setFirst] = useState(50);
  const q = useQuery(PublicationsQuery, { title: title.trim() || null, state: state || null, first });
  const remember = (t: string, s: string) => {
    const params = new URLSearchParams();
    if (t) params.set('title', t);
    if (s) params.set('state', s);
    replaceAddress(`/publications${params.size ? `?${params.toString()}` : ''}`);
  };
  const items = q.data?.publications.items ?? [];
  const total = q.data?.publications.total;
  return (
    <section aria-labelledby="pubs-title">
      <h1 id="pubs-title">Publications</h1>
      <form role="search" aria-label="Publications" class="pub-search" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="pubs-q">Title contains</label>
          <input
            id="pubs-q"
            type="search"
            value={title}
            onInput={(e) => {
              setTitle(e.currentTarget.value);
              remember(e.currentTarget.value, state);
            }}
          />
        </div>
        <div class="field">
          <label for="pubs-state">State</label>
          <select
            id="pubs-state"
            value={state}
            onChange={(e) => {
              setState(e.currentTarget.value);
              remember(title, e.currentTarget.value);
            }}
          >
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s || 'any'}
              </option>
            ))}
          </select>
        </div>
      </form>
      <p role="status" class="count">
        {q.loading
          ? 'Searching…'
          : total !== undefined
            ? `${total} publication${total === 1 ? '' : 's'}`
            : ''}
      </p>
      {q.error && (
        <p role="alert" class="error">
          {q.error}
        </p>
      )}
      {items.length > 0 && (
        <div class="table-scroll">
          <table class="results">
            <caption class="visually-hidden">Publications</caption>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">State</th>
                <th scope="col">Version</th>
                <th scope="col">Date</th>
              </tr>
            </thead>
            <tbody>
              {items.map((p) => (
                <tr key={p.id}>
                  <td>
                    <a href={`/publish/${encodeURIComponent(p.id)}`}>{p.title}</a>
                  </td>
                  <td>{p.state}</td>
                  <td>{p.version ?? ''}</td>
                  <td>{day(p.publishedAt ?? p.creationTime)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total !== undefined && items.length < total && (
        <button type="button" onClick={() => setFirst((n) => Math.min(n + 50, 1000))}>
          Show more
        </button>
      )}
    </section>
  );
}
