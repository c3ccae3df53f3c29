import { graphql } from '../gql';
import { useQuery } from '../hooks';
import { Fields, formatBytes, userName } from '../components/Fields';
import { MetadataTree } from '../components/MetadataTree';
import { Thumb } from '../components/Thumb';
import { EditDataset, AddKeyword, UploadFile, RequestDeletion } from './DatasetActions';

const DatasetQuery = graphql(`
  query DatasetPage($id: ID!) {
    dataset(id: $id) {
      uniqueId
      datasetName
      measurement
      dataType
      dataFormat
      sessionName
      timestamp
      public
      size
      creationTime
      modificationTime
      ownerOrcid
      owner {
        uniqueId
        username
        firstName
        lastName
      }
      project {
        projectId
        title
      }
      instrument {
        uniqueId
        instrumentName
      }
      keywords
      thumbnails(first: 24) {
        id
        mimeType
        thumbnailB64str
        thumbnailName
      }
      scientificMetadata
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
        }
      }
      parents {
        uniqueId
        datasetName
      }
      children {
        uniqueId
        datasetName
      }
      samples {
        uniqueId
        sampleName
      }
      capabilities {
        canUpdate
        canAddFiles
        canEditMetadata
        canRequestDeletion
      }
      deletionRequest {
        id
        status
        reason
        requestTime
      }
    }
  }
`);

const link = (kind: string, id: string, name: string | null | undefined) => (
  <a href={`/${kind}/${encodeURIComponent(id)}`}>{name ?? id}</a>
);

/** Read: one dataset and everything around it; actions appear only where the caller may act. */
export function DatasetPage({ id }: { id: string }) {
  const q = useQuery(DatasetQuery, { id });
  if (q.error)
    return (
      <p role="alert" class="error">
        {q.error}
      </p>
    );
  if (!q.data) return <p role="status">Loading…</p>;
  const d = q.data.dataset;
  const can = d.capabilities;
  return (
    <article aria-labelledby="ds-title">
      <h1 id="ds-title">{d.datasetName ?? d.uniqueId}</h1>
      <p class="sub">
        Dataset <code>{d.uniqueId}</code> · {d.public ? 'public' : 'private'} ·{' '}
        <a href={`/graph/${encodeURIComponent(d.uniqueId)}`}>Entity graph</a>
      </p>
      {d.deletionRequest && (
        <p class="notice" role="note">
          Deletion {d.deletionRequest.status} (request {d.deletionRequest.id},{' '}
          {d.deletionRequest.requestTime.slice(0, 10)})
          {d.deletionRequest.reason ? `: ${d.deletionRequest.reason}` : ''}
        </p>
      )}
      <section aria-labelledby="ds-fields">
        <h2 id="ds-fields">Fields</h2>
        <Fields
          rows={[
            ['Measurement', d.measurement],
            ['Data type', d.dataType],
            ['Data format', d.dataFormat],
            ['Session', d.sessionName],
            ['Timestamp', d.timestamp],
            ['Owner', `${userName(d.owner)} (${d.ownerOrcid})`],
            ['Project', d.project && link('projects', d.project.projectId, d.project.title)],
            [
              'Instrument',
              d.instrument && link('instruments', d.instrument.uniqueId, d.instrument.instrumentName),
            ],
            ['Size', formatBytes(d.size)],
            ['Created', d.creationTime],
            ['Modified', d.modificationTime],
          ]}
        />
        {can?.canUpdate && <EditDataset dataset={d} onDone={q.reload} />}
      </section>
      <section aria-labelledby="ds-keywords">
        <h2 id="ds-keywords">Keywords</h2>
        {d.keywords.length ? (
          <ul class="chips">
            {d.keywords.map((k) => (
              <li key={k}>
                <a href={`/?keyword=${encodeURIComponent(k)}`}>{k}</a>
              </li>
            ))}
          </ul>
        ) : (
          <p>No keywords.</p>
        )}
        {can?.canUpdate && <AddKeyword id={d.uniqueId} onDone={q.reload} />}
      </section>
      {d.thumbnails.length > 0 && (
        <section aria-labelledby="ds-thumbs">
          <h2 id="ds-thumbs">Thumbnails</h2>
          <ul class="thumbs">
            {d.thumbnails.map((t) => (
              <li key={t.id}>
                <Thumb t={t} size={120} zoom />
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="ds-meta">
        <h2 id="ds-meta">Scientific metadata</h2>
        <MetadataTree metadata={d.scientificMetadata} />
      </section>
      <section aria-labelledby="ds-files">
        <h2 id="ds-files">Files ({d.files.totalCount})</h2>
        {d.files.nodes.length > 0 && (
          <table class="files">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Size</th>
                <th scope="col">SHA-256</th>
                <th scope="col">Storage</th>
                <th scope="col">Ingestion</th>
                <th scope="col">Download</th>
              </tr>
            </thead>
            <tbody>
              {d.files.nodes.map((f) => (
                <tr key={f.uniqueId}>
                  <td>{f.filename}</td>
                  <td>{formatBytes(f.size)}</td>
                  <td>
                    <code class="hash" title={f.sha256 ?? ''}>
                      {f.sha256 ? `${f.sha256.slice(0, 12)}…` : ''}
                    </code>
                  </td>
                  <td>{f.storageBackend}</td>
                  <td class="ingestion">{f.ingestionStatus ?? '—'}</td>
                  <td>
                    {f.downloadUrl ? (
                      <a href={f.downloadUrl} download={f.filename} aria-label={`Download ${f.filename}`}>
                        Download
                      </a>
                    ) : (
                      'remote'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {can?.canAddFiles && <UploadFile id={d.uniqueId} onDone={q.reload} />}
      </section>
      <section aria-labelledby="ds-related">
        <h2 id="ds-related">Related</h2>
        <Fields
          rows={[
            [
              'Parents',
              d.parents.length ? (
                <ul class="inline">
                  {d.parents.map((p) => (
                    <li key={p.uniqueId}>{link('datasets', p.uniqueId, p.datasetName)}</li>
                  ))}
                </ul>
              ) : null,
            ],
            [
              'Children',
              d.children.length ? (
                <ul class="inline">
                  {d.children.map((p) => (
                    <li key={p.uniqueId}>{link('datasets', p.uniqueId, p.datasetName)}</li>
                  ))}
                </ul>
              ) : null,
            ],
            [
              'Samples',
              d.samples.length ? (
                <ul class="inline">
                  {d.samples.map((s) => (
                    <li key={s.uniqueId}>{link('samples', s.uniqueId, s.sampleName)}</li>
                  ))}
                </ul>
              ) : null,
            ],
          ]}
        />
        {!d.parents.length && !d.children.length && !d.samples.length && <p>No linked records.</p>}
      </section>
      {can?.canRequestDeletion && !d.deletionRequest && <RequestDeletion id={d.uniqueId} onDone={q.reload} />}
    </article>
  );
}
