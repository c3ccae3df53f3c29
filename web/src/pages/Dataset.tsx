import { When } from '../components/When';
import { graphql } from '../gql';
import { useQuery } from '../hooks';
import { Fields, formatBytes, userName } from '../components/Fields';
import { MetadataTree } from '../components/MetadataTree';
import { Thumb } from '../components/Thumb';
import { EditDataset, AddKeyword, RequestDeletion } from './DatasetActions';
import { DatasetFiles } from './DatasetFiles';
import { KeywordChips, PendingDeletion } from './RecordFixes';
import { RecordHistory } from './RecordHistory';
import { useState } from 'preact/hooks';
import {
  AccessPanel,
  ChangeWithPreview,
  LinkRecord,
  MergeMetadata,
  PreviewView,
  UnlinkButton,
  type Preview,
} from './DatasetManage';

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
        url
        thumbnailName
      }
      scientificMetadata
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
        canManageAccess
        canTransferOwnership
        canReassignProject
      }
      deletionRequest {
        id
        status
        reason
        requestTime
        requesterId
        requester {
          uniqueId
          username
          firstName
          lastName
        }
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
  const [applied, setApplied] = useState<Preview | null>(null);
  const onApplied = (p: Preview) => {
    setApplied(p);
    q.reload();
  };
  if (q.error)
    return (
      <p role="alert" class="error">
        {q.error}
      </p>
    );
  if (!q.data) return <p role="status">Loading…</p>;
  const d = q.data.dataset;
  const can = d.capabilities;
  const unlink = (other: string, name: string | null | undefined) =>
    can?.canUpdate && <UnlinkButton id={d.uniqueId} other={other} name={name ?? other} onDone={q.reload} />;
  return (
    <article aria-labelledby="ds-title">
      <h1 id="ds-title">{d.datasetName ?? d.uniqueId}</h1>
      <p class="sub">
        Dataset <code>{d.uniqueId}</code> · {d.public ? 'public' : 'private'} ·{' '}
        <a href={`/graph/${encodeURIComponent(d.uniqueId)}`}>Entity graph</a>
        {can?.canManageAccess && (
          <>
            {' '}
            · <a href={`/publish?datasets=${encodeURIComponent(d.uniqueId)}`}>Publish…</a>
          </>
        )}
      </p>
      {applied && <PreviewView p={applied} />}
      {d.deletionRequest && <PendingDeletion request={d.deletionRequest} onDone={q.reload} />}
      <section aria-labelledby="ds-fields">
        <h2 id="ds-fields">Fields</h2>
        <Fields
          rows={[
            ['Measurement', d.measurement],
            ['Data type', d.dataType],
            ['Data format', d.dataFormat],
            ['Session', d.sessionName],
            ['Timestamp', d.timestamp && <When iso={d.timestamp} />],
            ['Owner', `${userName(d.owner)} (${d.ownerOrcid})`],
            ['Project', d.project && link('projects', d.project.projectId, d.project.title)],
            [
              'Instrument',
              d.instrument && link('instruments', d.instrument.uniqueId, d.instrument.instrumentName),
            ],
            ['Size', formatBytes(d.size)],
            ['Created', <When iso={d.creationTime} />],
            ['Modified', d.modificationTime && <When iso={d.modificationTime} />],
          ]}
        />
        {can?.canUpdate && <EditDataset dataset={d} onDone={q.reload} />}
      </section>
      <section aria-labelledby="ds-keywords">
        <h2 id="ds-keywords">Keywords</h2>
        <KeywordChips id={d.uniqueId} keywords={d.keywords} canRemove={!!can?.canUpdate} onDone={q.reload} />
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
        {can?.canEditMetadata && (
          <MergeMetadata
            id={d.uniqueId}
            current={d.scientificMetadata as Record<string, unknown> | null}
            onDone={q.reload}
          />
        )}
      </section>
      <DatasetFiles
        id={d.uniqueId}
        canAdd={!!can?.canAddFiles}
        canDelete={!!can?.canUpdate}
        metadata={d.scientificMetadata as Record<string, unknown> | null}
        onChange={q.reload}
      />
      <section aria-labelledby="ds-related">
        <h2 id="ds-related">Related</h2>
        <Fields
          rows={[
            [
              'Parents',
              d.parents.length ? (
                <ul class="inline">
                  {d.parents.map((p) => (
                    <li key={p.uniqueId}>
                      {link('datasets', p.uniqueId, p.datasetName)}
                      {unlink(p.uniqueId, p.datasetName)}
                    </li>
                  ))}
                </ul>
              ) : null,
            ],
            [
              'Children',
              d.children.length ? (
                <ul class="inline">
                  {d.children.map((p) => (
                    <li key={p.uniqueId}>
                      {link('datasets', p.uniqueId, p.datasetName)}
                      {unlink(p.uniqueId, p.datasetName)}
                    </li>
                  ))}
                </ul>
              ) : null,
            ],
            [
              'Samples',
              d.samples.length ? (
                <ul class="inline">
                  {d.samples.map((s) => (
                    <li key={s.uniqueId}>
                      {link('samples', s.uniqueId, s.sampleName)}
                      {unlink(s.uniqueId, s.sampleName)}
                    </li>
                  ))}
                </ul>
              ) : null,
            ],
          ]}
        />
        {!d.parents.length && !d.children.length && !d.samples.length && <p>No linked records.</p>}
        {can?.canUpdate && <LinkRecord id={d.uniqueId} onDone={q.reload} />}
      </section>
      {can?.canManageAccess && <AccessPanel id={d.uniqueId} />}
      {can?.canTransferOwnership && (
        <ChangeWithPreview id={d.uniqueId} mode="transfer" onApplied={onApplied} />
      )}
      {can?.canReassignProject && <ChangeWithPreview id={d.uniqueId} mode="reassign" onApplied={onApplied} />}
      <RecordHistory id={d.uniqueId} canRestore={!!can?.canUpdate} onRestored={q.reload} kind="dataset" />
      {can?.canRequestDeletion && !d.deletionRequest && <RequestDeletion id={d.uniqueId} onDone={q.reload} />}
    </article>
  );
}
