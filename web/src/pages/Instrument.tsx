import { graphql } from '../gql';
import { useQuery } from '../hooks';
import { Fields, userName } from '../components/Fields';
import { MetadataTree } from '../components/MetadataTree';
import { EditFields } from '../components/EditFields';
import { request } from '../client';
import { useAction } from '../hooks';
import type { InstrumentStatus } from '../gql/graphql';

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

const SetStatusMutation = graphql(`
  mutation SetInstrumentStatus($id: String!, $status: InstrumentStatus!) {
    setInstrumentStatus(id: $id, status: $status) {
      uniqueId
      status
    }
  }
`);

/** The three statuses an instrument may be in, as the select offers them. */
const STATUSES: readonly InstrumentStatus[] = ['active', 'maintenance', 'decommissioned'];

/** The status of an instrument, chosen from its three values (not free text); saved on change. */
function StatusSelect({ id, status, onDone }: { id: string; status: string; onDone: () => void }) {
  const action = useAction();
  const change = async (value: string) => {
    const done = await action.run(() =>
      request(SetStatusMutation, { id, status: value as InstrumentStatus }),
    );
    if (done !== undefined) onDone();
  };
  return (
    <form class="edit" aria-label="Instrument status" onSubmit={(e) => e.preventDefault()}>
      <label>
        Status
        <select value={status} disabled={action.pending} onChange={(e) => void change(e.currentTarget.value)}>
          {STATUSES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </label>
      {action.error && (
        <p role="alert" class="error">
          {action.error}
        </p>
      )}
    </form>
  );
}

const EDITABLE = [
  ['instrumentName', 'Name'],
  ['instrumentId', 'Slug'],
  ['instrumentType', 'Type'],
  ['description', 'Description'],
  ['location', 'Location'],
  ['manufacturer', 'Manufacturer'],
  ['model', 'Model'],
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
        {i.capabilities?.canUpdate && <StatusSelect id={i.uniqueId} status={i.status} onDone={q.reload} />}
        {i.capabilities?.canUpdate && (
          <EditFields
            fields={EDITABLE}
            values={i}
            publicValue={i.capabilities.canManageAccess ? i.public : undefined}
            save={(changes) => request(UpdateInstrumentMutation, { id: i.uniqueId, input: changes })}
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
