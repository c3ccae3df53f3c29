import { graphql } from '../gql';
import { useQuery } from '../hooks';
import { Fields, userName } from '../components/Fields';
import { MetadataTree } from '../components/MetadataTree';
import { EditFields } from '../components/EditFields';
import { request } from '../client';
import type { UpdateInstrumentInput } from '../gql/graphql';

const InstrumentQuery = graphql(`
  query InstrumentPage($id: String!) {
    instrument(id: $id) {
      uniqueId
      instrumentId
      instrumentName
      instrumentType
      description
      location
      manufacturer
      model
      status
      otherId
      otherIdSource
      public
      capabilities {
        canUpdate
        canManageAccess
      }
      owner {
        uniqueId
        username
        firstName
        lastName
      }
      scientificMetadata
    }
  }
`);

const UpdateInstrumentMutation = graphql(`
  mutation UpdateInstrument($id: String!, $input: UpdateInstrumentInput!) {
    updateInstrument(id: $id, input: $input) {
      uniqueId
    }
  }
`);

const EDITABLE = [
  ['instrumentName', 'Name'],
  ['instrumentId', 'Slug'],
  ['instrumentType', 'Type'],
  ['description', 'Description'],
  ['location', 'Location'],
  ['manufacturer', 'Manufacturer'],
  ['model', 'Model'],
  ['status', 'Status'],
  ['otherId', 'Identifier elsewhere'],
  ['otherIdSource', 'Registry of that identifier'],
] as const;

export function InstrumentPage({ id }: { id: string }) {
  const q = useQuery(InstrumentQuery, { id });
  if (q.error)
    return (
      <p role="alert" class="error">
        {q.error}
      </p>
    );
  if (!q.data) return <p role="status">Loading…</p>;
  const i = q.data.instrument;
  return (
    <article aria-labelledby="i-title">
      <h1 id="i-title">{i.instrumentName}</h1>
      <p class="sub">
        Instrument <code>{i.uniqueId}</code> ·{' '}
        <a href={`/?instrument=${encodeURIComponent(i.uniqueId)}`}>Its datasets</a>
      </p>
      <section aria-labelledby="i-fields">
        <h2 id="i-fields">Fields</h2>
        <Fields
          rows={[
            ['Identifier', i.instrumentId],
            ['Type', i.instrumentType],
            ['Description', i.description],
            ['Location', i.location],
            ['Manufacturer', i.manufacturer],
            ['Model', i.model],
            ['Status', i.status],
            [
              'Identifier elsewhere',
              i.otherId && `${i.otherId}${i.otherIdSource ? ` (${i.otherIdSource})` : ''}`,
            ],
            ['Visibility', i.public ? 'public' : 'not public'],
            ['Owner', userName(i.owner)],
          ]}
        />
        {i.capabilities?.canUpdate && (
          <EditFields
            fields={EDITABLE}
            values={i}
            publicValue={i.capabilities.canManageAccess ? i.public : undefined}
            save={(changes) =>
              // status is typed as text here; a value outside the InstrumentStatus enum comes back as an error
              request(UpdateInstrumentMutation, { id: i.uniqueId, input: changes as UpdateInstrumentInput })
            }
            onDone={q.reload}
          />
        )}
      </section>
      <section aria-labelledby="i-meta">
        <h2 id="i-meta">Scientific metadata</h2>
        <MetadataTree metadata={i.scientificMetadata} />
      </section>
    </article>
  );
}
