import { When } from '../components/When';
import { graphql } from '../gql';
import { useQuery } from '../hooks';
import { Fields, userName } from '../components/Fields';
import { MetadataTree } from '../components/MetadataTree';
import { EditFields } from '../components/EditFields';
import { request } from '../client';
import { navigate } from '../router';
import type { UpdateProjectInput } from '../gql/graphql';
import { ProjectMembers } from './ProjectMembers';

const ProjectQuery = graphql(`
  query ProjectPage($id: String!) {
    project(id: $id) {
      uniqueId
      projectId
      title
      description
      organization
      status
      creationTime
      lead {
        uniqueId
        username
        firstName
        lastName
      }
      scientificMetadata
      capabilities {
        canUpdate
        canManageMembers
      }
      members {
        role
        user {
          uniqueId
          username
          firstName
          lastName
        }
      }
      datasets(first: 1) {
        totalCount
      }
      samples(first: 25) {
        totalCount
        nodes {
          uniqueId
          sampleName
        }
      }
    }
  }
`);

const UpdateProjectMutation = graphql(`
  mutation UpdateProject($id: String!, $input: UpdateProjectInput!) {
    updateProject(id: $id, input: $input) {
      projectId
    }
  }
`);

const EDITABLE = [
  ['title', 'Title'],
  ['description', 'Description'],
  ['organization', 'Organization'],
  ['status', 'Status'],
  ['projectId', 'Slug'],
] as const;

export function ProjectPage({ id }: { id: string }) {
  const q = useQuery(ProjectQuery, { id });
  if (q.error)
    return (
      <p role="alert" class="error">
        {q.error}
      </p>
    );
  if (!q.data) return <p role="status">Loading…</p>;
  const p = q.data.project;
  const pid = encodeURIComponent(p.projectId);
  const can = p.capabilities;
  return (
    <article aria-labelledby="p-title">
      <h1 id="p-title">{p.title ?? p.projectId}</h1>
      <p class="sub">
        Project <code>{p.projectId}</code> · <a href={`/projects/${pid}/graph`}>Project graph</a> ·{' '}
        <a href={`/?project=${pid}`}>Its {p.datasets.totalCount} datasets</a>
      </p>
      <section aria-labelledby="p-fields">
        <h2 id="p-fields">Fields</h2>
        <Fields
          rows={[
            ['Description', p.description],
            ['Organization', p.organization],
            ['Status', p.status],
            ['Lead', userName(p.lead)],
            ['Created', <When iso={p.creationTime} />],
          ]}
        />
        {can?.canUpdate && (
          <EditFields
            fields={EDITABLE}
            values={p}
            save={(input: UpdateProjectInput) => request(UpdateProjectMutation, { id: p.uniqueId, input })}
            onDone={(changes) => {
              // a new slug is a new address
              if (changes.projectId) navigate(`/projects/${encodeURIComponent(changes.projectId)}`, true);
              else q.reload();
            }}
          />
        )}
      </section>
      {p.members && (
        <ProjectMembers
          project={p.uniqueId}
          members={p.members}
          canManage={can?.canManageMembers ?? false}
          onChanged={q.reload}
        />
      )}
      <section aria-labelledby="p-samples">
        <h2 id="p-samples">Samples ({p.samples.totalCount})</h2>
        <ul class="inline">
          {p.samples.nodes.map((s) => (
            <li key={s.uniqueId}>
              <a href={`/samples/${encodeURIComponent(s.uniqueId)}`}>{s.sampleName ?? s.uniqueId}</a>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="p-meta">
        <h2 id="p-meta">Scientific metadata</h2>
        <MetadataTree metadata={p.scientificMetadata} />
      </section>
    </article>
  );
}
