import { When } from '../components/When';
import { graphql } from '../gql';
import { useQuery } from '../hooks';
import { Fields, userName } from '../components/Fields';
import { MetadataTree } from '../components/MetadataTree';
import { useState } from 'preact/hooks';
import { request } from '../client';
import { EditFields } from '../components/EditFields';
import type { UpdateSampleInput } from '../gql/graphql';
import { RequestDeletion } from './DatasetActions';
import { PendingDeletion } from './RecordFixes';
import { RecordHistory } from './RecordHistory';
import {
  AccessPanel,
  ChangeWithPreview,
  LinkRecord,
  MergeMetadata,
  PreviewView,
  type Preview,
} from './DatasetManage';

const SampleQuery = graphql(`
  query SamplePage($id: ID!) {
    sample(id: $id) {
      uniqueId
      sampleName
      sampleType
      description
      timestamp
      public
      creationTime
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
      scientificMetadata
      datasets {
        uniqueId
        datasetName
      }
      parents {
        uniqueId
        sampleName
      }
      children {
        uniqueId
        sampleName
      }
      deletionRequest {
        id
        status
        reason
        requestTime
        requesterId
      }
      capabilities {
        canUpdate
        canEditMetadata
        canManageAccess
        canTransferOwnership
        canReassignProject
        canRequestDeletion
      }
    }
  }
`);

const UpdateSampleMutation = graphql(`
  mutation UpdateSample($id: ID!, $input: UpdateSampleInput!) {
    updateSample(id: $id, input: $input) {
      uniqueId
    }
  }
`);

const EDITABLE = [
  ['sampleName', 'Name'],
  ['sampleType', 'Type'],
  ['description', 'Description'],
  ['timestamp', 'Timestamp'],
] as const;

const list = (kind: string, items: { uniqueId: string; name?: string | null }[]) =>
  items.length ? (
    <ul class="inline">
      {items.map((i) => (
        <li key={i.uniqueId}>
          <a href={`/${kind}/${encodeURIComponent(i.uniqueId)}`}>{i.name ?? i.uniqueId}</a>
        </li>
      ))}
    </ul>
  ) : null;

export function SamplePage({ id }: { id: string }) {
  const q = useQuery(SampleQuery, { id });
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
  const s = q.data.sample;
  const can = s.capabilities;
  return (
    <article aria-labelledby="s-title">
      <h1 id="s-title">{s.sampleName ?? s.uniqueId}</h1>
      <p class="sub">
        Sample <code>{s.uniqueId}</code> · {s.public ? 'public' : 'private'} ·{' '}
        <a href={`/graph/${encodeURIComponent(s.uniqueId)}`}>Entity graph</a>
      </p>
      {applied && <PreviewView p={applied} />}
      {s.deletionRequest && <PendingDeletion request={s.deletionRequest} onDone={q.reload} />}
      <section aria-labelledby="s-fields">
        <h2 id="s-fields">Fields</h2>
        <Fields
          rows={[
            ['Type', s.sampleType],
            ['Description', s.description],
            ['Timestamp', s.timestamp && <When iso={s.timestamp} />],
            ['Owner', `${userName(s.owner)} (${s.ownerOrcid})`],
            [
              'Project',
              s.project && (
                <a href={`/projects/${encodeURIComponent(s.project.projectId)}`}>
                  {s.project.title ?? s.project.projectId}
                </a>
              ),
            ],
            ['Created', <When iso={s.creationTime} />],
            [
              'Datasets',
              list(
                'datasets',
                s.datasets.map((d) => ({ uniqueId: d.uniqueId, name: d.datasetName })),
              ),
            ],
            [
              'Parent samples',
              list(
                'samples',
                s.parents.map((d) => ({ uniqueId: d.uniqueId, name: d.sampleName })),
              ),
            ],
            [
              'Child samples',
              list(
                'samples',
                s.children.map((d) => ({ uniqueId: d.uniqueId, name: d.sampleName })),
              ),
            ],
          ]}
        />
        {can?.canUpdate && (
          <EditFields
            fields={EDITABLE}
            values={s}
            publicValue={can.canManageAccess ? s.public : undefined}
            save={(input: UpdateSampleInput) => request(UpdateSampleMutation, { id: s.uniqueId, input })}
            onDone={q.reload}
          />
        )}
        {can?.canUpdate && <LinkRecord id={s.uniqueId} noun="sample" onDone={q.reload} />}
      </section>
      <section aria-labelledby="s-meta">
        <h2 id="s-meta">Scientific metadata</h2>
        <MetadataTree metadata={s.scientificMetadata} />
        {can?.canEditMetadata && (
          <MergeMetadata
            id={s.uniqueId}
            current={s.scientificMetadata as Record<string, unknown> | null}
            onDone={q.reload}
          />
        )}
      </section>
      {can?.canManageAccess && <AccessPanel id={s.uniqueId} />}
      {can?.canTransferOwnership && (
        <ChangeWithPreview id={s.uniqueId} mode="transfer" onApplied={onApplied} />
      )}
      {can?.canReassignProject && <ChangeWithPreview id={s.uniqueId} mode="reassign" onApplied={onApplied} />}
      <RecordHistory id={s.uniqueId} canRestore={!!can?.canUpdate} onRestored={q.reload} kind="sample" />
      {can?.canRequestDeletion && !s.deletionRequest && <RequestDeletion id={s.uniqueId} onDone={q.reload} />}
    </article>
  );
}
