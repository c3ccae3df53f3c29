import { useEffect, useState } from 'preact/hooks';
import { graphql } from '../gql';
import { ApiError, request } from '../client';
import { useQuery } from '../hooks';
import { navigate } from '../router';
import { TextField } from '../components/FormField';
import {
  COMMON_LICENSES,
  emptyForm,
  fromPublication,
  problemsOf,
  PUBLICATION_LIMITS,
  RELATED_IDENTIFIER_TYPES,
  RELATION_TYPES,
  serverProblems,
  SPDX_LICENSES,
  toInput,
  type Problems,
  type PublishForm,
} from './publication-form';

const PublishMe = graphql(`
  query PublishMe {
    me {
      user {
        username
        firstName
        lastName
      }
    }
  }
`);

const PublishDatasetName = graphql(`
  query PublishDatasetName($id: ID!) {
    dataset(id: $id) {
      uniqueId
      datasetName
    }
  }
`);

// `PublicationDescription`: Publication.tsx
export const PublicationFields = graphql(`
  query PublicationToEdit($id: ID!) {
    publication(id: $id) {
      ...PublicationDescription
      funding {
        funderName
        funderIdentifier
        awardNumber
        awardTitle
      }
      relatedIdentifiers {
        relatedIdentifier
        relatedIdentifierType
        relationType
      }
    }
  }
`);

const CreatePublication = graphql(`
  mutation CreatePublication($datasetIds: [ID!]!, $input: PublicationMetadataInput!) {
    createPublication(datasetIds: $datasetIds, input: $input) {
      id
    }
  }
`);

const UpdatePublication = graphql(`
  mutation UpdatePublication($id: ID!, $input: PublicationMetadataInput!) {
    updatePublication(id: $id, input: $input) {
      id
    }
  }
`);

/** How many datasets the form names (the rest are counted). */
const NAMED = 20;

/** `/publish?datasets=a,b`: a new draft of these datasets. */
export function NewPublicationPage({ datasets }: { datasets: string[] }) {
  const me = useQuery(PublishMe, {});
  const [names, setNames] = useState<Record<string, string>>({});
  const key = datasets.join(',');
  useEffect(() => {
    let live = true;
    for (const id of datasets.slice(0, NAMED))
      request(PublishDatasetName, { id }).then(
        (d) => {
          if (live) setNames((n) => ({ ...n, [id]: d.dataset.datasetName ?? id }));
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [key]);
  if (!datasets.length)
    return (
      <section>
        <h1>Publish datasets</h1>
        <p>
          Choose the datasets first: select them in the <a href="/">dataset list</a>, or open one and use
          “Publish…”.
        </p>
      </section>
    );
  if (me.error)
    return (
      <p role="alert" class="error">
        {me.error}
      </p>
    );
  if (!me.data) return <p role="status">Loading…</p>;
  const u = me.data.me.user;
  // the caller is the first creator, as DataCite writes a person: "Family, Given"
  const caller = u.lastName ? [u.lastName, u.firstName].filter(Boolean).join(', ') : (u.username ?? '');
  return (
    <section aria-labelledby="pub-form-title">
      <h1 id="pub-form-title">Publish datasets</h1>
      <DatasetList ids={datasets} names={names} />
      <MetadataForm
        initial={emptyForm(caller)}
        submitLabel="Create the draft"
        onSubmit={async (input) =>
          (await request(CreatePublication, { datasetIds: datasets, input })).createPublication.id
        }
      />
    </section>
  );
}

/** `/publish/{id}/edit`: a draft's metadata, changed. */
export function EditPublicationPage({ id }: { id: string }) {
  const q = useQuery(PublicationFields, { id });
  if (q.error)
    return (
      <p role="alert" class="error">
        {q.error}
      </p>
    );
  if (!q.data) return <p role="status">Loading…</p>;
  const p = q.data.publication;
  if (p.state !== 'draft' || !p.canChange)
    return (
      <section>
        <h1>{p.title}</h1>
        <p role="alert">
          Only a draft changes, by those who may manage its datasets. <a href={`/publish/${p.id}`}>Back</a>
        </p>
      </section>
    );
  return (
    <section aria-labelledby="pub-form-title">
      <h1 id="pub-form-title">Edit the draft</h1>
      <DatasetList
        ids={p.datasets.map((d) => d.datasetId)}
        names={Object.fromEntries(p.datasets.map((d) => [d.datasetId, d.name ?? d.datasetId]))}
      />
      <MetadataForm
        initial={fromPublication(p)}
        submitLabel="Save the draft"
        onSubmit={async (input) => (await request(UpdatePublication, { id, input })).updatePublication.id}
      />
    </section>
  );
}

function DatasetList({ ids, names }: { ids: string[]; names: Record<string, string> }) {
  return (
    <section aria-labelledby="pub-datasets">
      <h2 id="pub-datasets">
        {ids.length} dataset{ids.length === 1 ? '' : 's'}
      </h2>
      <ul class="pub-datasets">
        {ids.slice(0, NAMED).map((id) => (
          <li key={id}>
            <a href={`/datasets/${encodeURIComponent(id)}`}>{names[id] ?? 'Loading…'}</a>
          </li>
        ))}
        {ids.length > NAMED && <li>and {ids.length - NAMED} more</li>}
      </ul>
    </section>
  );
}

let seq = 0;

/** A labelled select whose problem is tied to it. */
function Select({
  label,
  value,
  options,
  problem,
  onChange,
  children,
}: {
  label: string;
  value: string;
  options?: readonly string[];
  problem?: string;
  onChange: (v: string) => void;
  children?: preact.ComponentChildren;
}) {
  const [id] = useState(() => `ps${++seq}`);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-err` : undefined}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        {options?.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
        {children}
      </select>
      {problem && (
        <span id={`${id}-err`} class="error field-error">
          {problem}
        </span>
      )}
    </div>
  );
}

/**
 * The metadata form: every field checked by the service's own rules as it is typed (shown once
 * "Create" was tried, and from then on as the fields change), nothing sent while a problem is
 * left; what the service still refuses is shown by its field and at the top.
 */
function MetadataForm({
  initial,
  submitLabel,
  onSubmit,
}: {
  initial: PublishForm;
  submitLabel: string;
  onSubmit: (input: ReturnType<typeof toInput>) => Promise<string>;
}) {
  const [f, setF] = useState<PublishForm>(initial);
  const [tried, setTried] = useState(false);
  const [server, setServer] = useState<{ fields: Problems; message: string | null }>({
    fields: {},
    message: null,
  });
  const [pending, setPending] = useState(false);
  const live = problemsOf(f);
  const shown: Problems = { ...(tried ? live : {}), ...server.fields };
  const p = (field: string): string | undefined => shown[field];
  const set = (patch: Partial<PublishForm>) => setF((old) => ({ ...old, ...patch }));
  const setCreator = (i: number, patch: Partial<PublishForm['creators'][number]>) =>
    set({ creators: f.creators.map((c, j) => (j === i ? { ...c, ...patch } : c)) });
  const count = f.description.trim().length;
  const submit = async (e: Event) => {
    e.preventDefault();
    setTried(true);
    setServer({ fields: {}, message: null });
    if (Object.keys(live).length) {
      document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    setPending(true);
    try {
      const id = await onSubmit(toInput(f));
      navigate(`/publish/${encodeURIComponent(id)}`);
    } catch (err) {
      setServer({
        fields: err instanceof ApiError ? serverProblems(err.fields) : {},
        message: err instanceof Error ? err.message : String(err),
      });
    } finally {
      setPending(false);
    }
  };
  const liveCount = Object.keys(live).length;
  return (
    <form aria-label="Publication metadata" class="pub-form" noValidate onSubmit={(e) => void submit(e)}>
      {server.message && (
        <p role="alert" class="error">
          The service refused it: {server.message}
        </p>
      )}
      {tried && liveCount > 0 && (
        <p role="alert" class="error">
          {liveCount} problem{liveCount === 1 ? '' : 's'} to fix (marked by the fields): nothing was sent.
        </p>
      )}
      <TextField
        label="Title"
        required
        value={f.title}
        error={p('title')}
        onInput={(v) => set({ title: v })}
      />
      <TextField
        label="Description"
        required
        multiline
        value={f.description}
        error={p('description')}
        hint={
          <span aria-live="polite" data-testid="description-count">
            {count.toLocaleString('en')} of {PUBLICATION_LIMITS.descriptionMin}–
            {PUBLICATION_LIMITS.descriptionMax.toLocaleString('en')} characters
          </span>
        }
        onInput={(v) => set({ description: v })}
      />
      <fieldset>
        <legend>Creators</legend>
        {p('creators') && <p class="error field-error">{p('creators')}</p>}
        {f.creators.map((c, i) => (
          <div class="pub-row" role="group" aria-label={`Creator ${i + 1}`} key={i}>
            <TextField
              label={`Creator ${i + 1} name (Family, Given)`}
              required
              value={c.name}
              error={p(`creators[${i}].name`)}
              onInput={(v) => setCreator(i, { name: v })}
            />
            <TextField
              label={`Creator ${i + 1} ORCID iD`}
              value={c.orcid}
              hint="0000-0002-1825-0097 or its https://orcid.org/ URL"
              error={p(`creators[${i}].orcid`)}
              onInput={(v) => setCreator(i, { orcid: v })}
            />
            {c.affiliations.map((a, k) => (
              <div class="pub-subrow" key={k}>
                <TextField
                  label={`Creator ${i + 1} affiliation ${k + 1}`}
                  required
                  value={a.name}
                  error={p(`creators[${i}].affiliations[${k}].name`)}
                  onInput={(v) =>
                    setCreator(i, {
                      affiliations: c.affiliations.map((x, j) => (j === k ? { ...x, name: v } : x)),
                    })
                  }
                />
                <TextField
                  label={`Creator ${i + 1} affiliation ${k + 1} ROR id`}
                  value={a.ror}
                  hint="https://ror.org/02mhbdp94"
                  error={p(`creators[${i}].affiliations[${k}].ror_id`)}
                  onInput={(v) =>
                    setCreator(i, {
                      affiliations: c.affiliations.map((x, j) => (j === k ? { ...x, ror: v } : x)),
                    })
                  }
                />
                <button
                  type="button"
                  class="small"
                  onClick={() => setCreator(i, { affiliations: c.affiliations.filter((_, j) => j !== k) })}
                >
                  Remove affiliation {k + 1} of creator {i + 1}
                </button>
              </div>
            ))}
            <div class="buttons">
              <button
                type="button"
                class="small"
                onClick={() => setCreator(i, { affiliations: [...c.affiliations, { name: '', ror: '' }] })}
              >
                Add an affiliation to creator {i + 1}
              </button>
              {f.creators.length > 1 && (
                <button
                  type="button"
                  class="small"
                  onClick={() => set({ creators: f.creators.filter((_, j) => j !== i) })}
                >
                  Remove creator {i + 1}
                </button>
              )}
            </div>
          </div>
        ))}
        <button
          type="button"
          onClick={() => set({ creators: [...f.creators, { name: '', orcid: '', affiliations: [] }] })}
        >
          Add a creator
        </button>
      </fieldset>
      <Select label="License" value={f.license} problem={p('license')} onChange={(v) => set({ license: v })}>
        <optgroup label="Common">
          {COMMON_LICENSES.map((id) => (
            <option key={id} value={id}>
              {id} · {SPDX_LICENSES[id]}
            </option>
          ))}
        </optgroup>
        <optgroup label="All SPDX licenses">
          {Object.entries(SPDX_LICENSES)
            .filter(([id]) => !COMMON_LICENSES.includes(id))
            .map(([id, name]) => (
              <option key={id} value={id}>
                {id} · {name}
              </option>
            ))}
        </optgroup>
      </Select>
      <TextField
        label="Keywords"
        value={f.keywords}
        hint={`Separated by commas (at most ${PUBLICATION_LIMITS.keywords})`}
        error={p('keywords') ?? Object.entries(shown).find(([k]) => k.startsWith('keywords['))?.[1]}
        onInput={(v) => set({ keywords: v })}
      />
      <TextField
        label="Version"
        value={f.version}
        hint="Optional, e.g. 1.0"
        error={p('version')}
        onInput={(v) => set({ version: v })}
      />
      <TextField
        label="Embargo until"
        value={f.embargo}
        hint="Optional: a date (2027-01-01, midnight UTC) or a date-time with its offset. Until then the files stay closed to readers without a role on the datasets; the publication itself is public."
        error={p('embargo_until')}
        onInput={(v) => set({ embargo: v })}
      />
      <fieldset>
        <legend>Funding</legend>
        {p('funding') && <p class="error field-error">{p('funding')}</p>}
        {f.funding.map((x, i) => {
          const setFunding = (patch: Partial<typeof x>) =>
            set({ funding: f.funding.map((y, j) => (j === i ? { ...y, ...patch } : y)) });
          return (
            <div class="pub-row" role="group" aria-label={`Funding ${i + 1}`} key={i}>
              <TextField
                label={`Funding ${i + 1} funder`}
                required
                value={x.funderName}
                error={p(`funding[${i}].funder_name`)}
                onInput={(v) => setFunding({ funderName: v })}
              />
              <TextField
                label={`Funding ${i + 1} funder identifier`}
                value={x.funderIdentifier}
                hint="A ROR or Crossref Funder id"
                error={p(`funding[${i}].funder_identifier`)}
                onInput={(v) => setFunding({ funderIdentifier: v })}
              />
              <TextField
                label={`Funding ${i + 1} award number`}
                value={x.awardNumber}
                error={p(`funding[${i}].award_number`)}
                onInput={(v) => setFunding({ awardNumber: v })}
              />
              <TextField
                label={`Funding ${i + 1} award title`}
                value={x.awardTitle}
                error={p(`funding[${i}].award_title`)}
                onInput={(v) => setFunding({ awardTitle: v })}
              />
              <button
                type="button"
                class="small"
                onClick={() => set({ funding: f.funding.filter((_, j) => j !== i) })}
              >
                Remove funding {i + 1}
              </button>
            </div>
          );
        })}
        <button
          type="button"
          onClick={() =>
            set({
              funding: [
                ...f.funding,
                { funderName: '', funderIdentifier: '', awardNumber: '', awardTitle: '' },
              ],
            })
          }
        >
          Add funding
        </button>
      </fieldset>
      <fieldset>
        <legend>Related identifiers</legend>
        {p('related_identifiers') && <p class="error field-error">{p('related_identifiers')}</p>}
        {f.related.map((r, i) => {
          const setRelated = (patch: Partial<typeof r>) =>
            set({ related: f.related.map((y, j) => (j === i ? { ...y, ...patch } : y)) });
          const at = `related_identifiers[${i}]`;
          return (
            <div class="pub-row" role="group" aria-label={`Related identifier ${i + 1}`} key={i}>
              <Select
                label="Relation"
                value={r.relation}
                options={RELATION_TYPES.filter((t) => t !== 'IsNewVersionOf' && t !== 'IsPreviousVersionOf')}
                problem={p(`${at}.relation_type`)}
                onChange={(v) => setRelated({ relation: v })}
              />
              <Select
                label="Identifier type"
                value={r.type}
                options={RELATED_IDENTIFIER_TYPES}
                problem={p(`${at}.related_identifier_type`)}
                onChange={(v) => setRelated({ type: v })}
              />
              <TextField
                label="Identifier"
                required
                value={r.identifier}
                error={p(`${at}.related_identifier`)}
                onInput={(v) => setRelated({ identifier: v })}
              />
              <button
                type="button"
                class="small"
                onClick={() => set({ related: f.related.filter((_, j) => j !== i) })}
              >
                Remove related identifier {i + 1}
              </button>
            </div>
          );
        })}
        <button
          type="button"
          onClick={() =>
            set({ related: [...f.related, { identifier: '', type: 'DOI', relation: 'IsSupplementTo' }] })
          }
        >
          Add a related identifier
        </button>
      </fieldset>
      <div class="buttons">
        <button type="submit" disabled={pending}>
          {pending ? 'Saving…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
