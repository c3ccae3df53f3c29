import { useState } from 'preact/hooks';
import { graphql } from '../gql';
import { request } from '../client';
import { useQuery } from '../hooks';
import { navigate } from '../router';
import { Picker, type Picked } from '../components/Picker';
import { formErrors, fieldKey, NO_ERRORS, TextField, type FormErrors } from '../components/FormField';

export const CreateCapabilities = graphql(`
  query CreateCapabilities {
    me {
      canElevate
      capabilities {
        canCreateProject
        canRegisterInstrument
        canCreateSample
        canCreateDataset
        canCreateForOthers
      }
    }
  }
`);

const CreateProject = graphql(`
  mutation CreateProjectPage($input: CreateProjectInput!) {
    createProject(input: $input) {
      projectId
    }
  }
`);
const CreateInstrument = graphql(`
  mutation CreateInstrumentPage($input: CreateInstrumentInput!) {
    createInstrument(input: $input) {
      uniqueId
    }
  }
`);
const CreateSample = graphql(`
  mutation CreateSamplePage($input: CreateSampleInput!) {
    createSample(input: $input) {
      uniqueId
    }
  }
`);
const CreateDataset = graphql(`
  mutation CreateDatasetPage($input: CreateDatasetInput!) {
    createDataset(input: $input) {
      uniqueId
    }
  }
`);
const LinkSample = graphql(`
  mutation LinkNewDatasetSample($input: LinkResourcesInput!) {
    linkResources(input: $input) {
      kind
    }
  }
`);

export type CreateKind = 'project' | 'instrument' | 'sample' | 'dataset';
const TITLES: Record<CreateKind, string> = {
  project: 'New project',
  instrument: 'New instrument',
  sample: 'New sample',
  dataset: 'New dataset',
};

/** Text fields, unset when blank: the API's defaults apply. */
const trimmed = (v: string): string | undefined => (v.trim() ? v.trim() : undefined);

/** The state of one create form: its values, its errors, pending. */
function useForm<K extends string>(initial: Record<K, string>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [pending, setPending] = useState(false);
  const set = (k: K) => (v: string) => setValues((s) => ({ ...s, [k]: v }));
  const err = (name: string): string | null => {
    const k = fieldKey(name);
    return Object.hasOwn(errors.fields, k) ? errors.fields[k] : null;
  };
  return { values, set, errors, setErrors, pending, setPending, err };
}

function FormAlert({ errors }: { errors: FormErrors }) {
  const n = Object.keys(errors.fields).length;
  if (!errors.form && !n) return null;
  return (
    <div role="alert" class="error form-error">
      {errors.form ?? `Please correct the field${n === 1 ? '' : 's'} marked below.`}
    </div>
  );
}

/**
 * A name that is blank is refused on the page, by its field, before anything is sent (a record
 * without a name is a row nobody can click).
 */
function blank(form: { setErrors: (e: FormErrors) => void }, field: string, value: string): boolean {
  if (value.trim()) return false;
  form.setErrors({ fields: { [fieldKey(field)]: 'Enter a name' }, form: null });
  return true;
}

/** Runs a create mutation: on success goes to the new record's page, else shows the errors by their fields. */
async function submitting<T>(
  form: { setPending: (b: boolean) => void; setErrors: (e: FormErrors) => void },
  known: readonly string[],
  run: () => Promise<T>,
  then: (r: T) => void | Promise<void>,
): Promise<void> {
  form.setPending(true);
  form.setErrors(NO_ERRORS);
  try {
    await then(await run());
  } catch (e) {
    form.setErrors(formErrors(e, known));
  } finally {
    form.setPending(false);
  }
}

function ProjectForm({ forOthers }: { forOthers: boolean }) {
  const f = useForm({ projectId: '', title: '', organization: '', description: '' });
  const [lead, setLead] = useState<Picked | null>(null);
  const submit = (e: Event) => {
    e.preventDefault();
    const v = f.values;
    void submitting(
      f,
      ['projectId', 'title', 'organization', 'description', 'projectLead'],
      () =>
        request(CreateProject, {
          input: {
            projectId: v.projectId.trim(),
            title: trimmed(v.title),
            organization: trimmed(v.organization),
            description: trimmed(v.description),
            projectLead: lead?.value,
          },
        }),
      (r) => navigate(`/projects/${encodeURIComponent(r.createProject.projectId)}`),
    );
  };
  return (
    <form class="create" onSubmit={submit} aria-label="New project" noValidate>
      <FormAlert errors={f.errors} />
      <TextField label="Title" value={f.values.title} onInput={f.set('title')} error={f.err('title')} />
      <TextField
        label="Slug"
        required
        value={f.values.projectId}
        onInput={f.set('projectId')}
        error={f.err('projectId')}
        hint={'2-64 letters, digits, "_" or "-": the address of its page'}
      />
      <TextField
        label="Organization"
        value={f.values.organization}
        onInput={f.set('organization')}
        error={f.err('organization')}
      />
      <TextField
        label="Description"
        multiline
        value={f.values.description}
        onInput={f.set('description')}
        error={f.err('description')}
      />
      {forOthers && (
        <Picker
          label="Lead"
          kind="user"
          value={lead}
          onChange={setLead}
          error={f.err('projectLead')}
          hint="Leave empty to lead it yourself"
        />
      )}
      <button type="submit" disabled={f.pending}>
        Create project
      </button>
    </form>
  );
}

function InstrumentForm({ forOthers }: { forOthers: boolean }) {
  const f = useForm({
    instrumentName: '',
    instrumentType: '',
    manufacturer: '',
    model: '',
    location: '',
    description: '',
  });
  const [owner, setOwner] = useState<Picked | null>(null);
  const submit = (e: Event) => {
    e.preventDefault();
    const v = f.values;
    if (blank(f, 'instrumentName', v.instrumentName)) return;
    void submitting(
      f,
      [...Object.keys(v), 'owner', 'instrumentId'],
      () =>
        request(CreateInstrument, {
          input: {
            instrumentName: v.instrumentName.trim(),
            instrumentType: trimmed(v.instrumentType),
            manufacturer: trimmed(v.manufacturer),
            model: trimmed(v.model),
            location: trimmed(v.location),
            description: trimmed(v.description),
            owner: owner?.value,
          },
        }),
      (r) => navigate(`/instruments/${encodeURIComponent(r.createInstrument.uniqueId)}`),
    );
  };
  return (
    <form class="create" onSubmit={submit} aria-label="New instrument" noValidate>
      <FormAlert errors={f.errors} />
      <TextField
        label="Name"
        required
        value={f.values.instrumentName}
        onInput={f.set('instrumentName')}
        error={f.err('instrumentName') ?? f.err('instrumentId')}
      />
      <TextField
        label="Type"
        value={f.values.instrumentType}
        onInput={f.set('instrumentType')}
        error={f.err('instrumentType')}
      />
      <TextField
        label="Manufacturer"
        value={f.values.manufacturer}
        onInput={f.set('manufacturer')}
        error={f.err('manufacturer')}
      />
      <TextField label="Model" value={f.values.model} onInput={f.set('model')} error={f.err('model')} />
      <TextField
        label="Location"
        value={f.values.location}
        onInput={f.set('location')}
        error={f.err('location')}
      />
      <TextField
        label="Description"
        multiline
        value={f.values.description}
        onInput={f.set('description')}
        error={f.err('description')}
      />
      {forOthers && (
        <Picker
          label="Operator"
          kind="user"
          value={owner}
          onChange={setOwner}
          error={f.err('owner')}
          hint="Leave empty to operate it yourself"
        />
      )}
      <button type="submit" disabled={f.pending}>
        Create instrument
      </button>
    </form>
  );
}

function SampleForm({ forOthers, project: initialProject }: { forOthers: boolean; project: Picked | null }) {
  const f = useForm({ sampleName: '', sampleType: '', description: '' });
  const [project, setProject] = useState<Picked | null>(initialProject);
  const [owner, setOwner] = useState<Picked | null>(null);
  const [isPublic, setPublic] = useState(false);
  const submit = (e: Event) => {
    e.preventDefault();
    const v = f.values;
    if (blank(f, 'sampleName', v.sampleName)) return;
    void submitting(
      f,
      [...Object.keys(v), 'owner', 'projectId', 'projectMfid', 'public'],
      () =>
        request(CreateSample, {
          input: {
            sampleName: v.sampleName.trim(),
            sampleType: trimmed(v.sampleType),
            description: trimmed(v.description),
            projectId: project?.value,
            owner: owner?.value,
            public: isPublic,
          },
        }),
      (r) => navigate(`/samples/${encodeURIComponent(r.createSample.uniqueId)}`),
    );
  };
  return (
    <form class="create" onSubmit={submit} aria-label="New sample" noValidate>
      <FormAlert errors={f.errors} />
      <TextField
        label="Name"
        required
        value={f.values.sampleName}
        onInput={f.set('sampleName')}
        error={f.err('sampleName')}
      />
      <TextField
        label="Type"
        value={f.values.sampleType}
        onInput={f.set('sampleType')}
        error={f.err('sampleType')}
      />
      <TextField
        label="Description"
        multiline
        value={f.values.description}
        onInput={f.set('description')}
        error={f.err('description')}
      />
      <Picker
        label="Project"
        kind="project"
        value={project}
        onChange={setProject}
        error={f.err('projectId') ?? f.err('projectMfid')}
        hint="Search by title or slug; leave empty for none"
      />
      {forOthers && (
        <Picker
          label="Owner"
          kind="user"
          value={owner}
          onChange={setOwner}
          error={f.err('owner')}
          hint="Leave empty to own it yourself"
        />
      )}
      <label class="check">
        <input type="checkbox" checked={isPublic} onChange={(e) => setPublic(e.currentTarget.checked)} />
        Public (every signed-in user may read it)
      </label>
      <button type="submit" disabled={f.pending}>
        Create sample
      </button>
    </form>
  );
}

function DatasetForm({ forOthers, project: initialProject }: { forOthers: boolean; project: Picked | null }) {
  const f = useForm({ datasetName: '', measurement: '', dataType: '', sessionName: '' });
  const [project, setProject] = useState<Picked | null>(initialProject);
  const [instrument, setInstrument] = useState<Picked | null>(null);
  const [sample, setSample] = useState<Picked | null>(null);
  const [owner, setOwner] = useState<Picked | null>(null);
  const [isPublic, setPublic] = useState(false);
  const [made, setMade] = useState<{ id: string; linkError: string } | null>(null);
  const submit = (e: Event) => {
    e.preventDefault();
    const v = f.values;
    if (blank(f, 'datasetName', v.datasetName)) return;
    void submitting(
      f,
      [...Object.keys(v), 'owner', 'projectId', 'projectMfid', 'instrumentMfid', 'instrumentId', 'public'],
      () =>
        request(CreateDataset, {
          input: {
            datasetName: v.datasetName.trim(),
            measurement: trimmed(v.measurement),
            dataType: trimmed(v.dataType),
            sessionName: trimmed(v.sessionName),
            projectId: project?.value,
            instrumentMfid: instrument?.value,
            owner: owner?.value,
            public: isPublic,
          },
        }),
      async (r) => {
        const id = r.createDataset.uniqueId;
        if (sample) {
          try {
            await request(LinkSample, { input: { parentId: sample.value, childId: id } });
          } catch (err) {
            // the dataset exists: say so, with why the sample was not linked
            setMade({ id, linkError: err instanceof Error ? err.message : String(err) });
            return;
          }
        }
        navigate(`/datasets/${encodeURIComponent(id)}`);
      },
    );
  };
  if (made)
    return (
      <div role="alert" class="notice">
        <p>
          The dataset was created, but the sample {sample?.label} was not linked to it: {made.linkError}
        </p>
        <a href={`/datasets/${encodeURIComponent(made.id)}`}>Open the new dataset</a>
      </div>
    );
  return (
    <form class="create" onSubmit={submit} aria-label="New dataset" noValidate>
      <FormAlert errors={f.errors} />
      <TextField
        label="Name"
        required
        value={f.values.datasetName}
        onInput={f.set('datasetName')}
        error={f.err('datasetName')}
      />
      <TextField
        label="Measurement"
        value={f.values.measurement}
        onInput={f.set('measurement')}
        error={f.err('measurement')}
        hint="The kind of experiment: XRD, SEM, …"
      />
      <TextField
        label="Data type"
        value={f.values.dataType}
        onInput={f.set('dataType')}
        error={f.err('dataType')}
      />
      <TextField
        label="Session"
        value={f.values.sessionName}
        onInput={f.set('sessionName')}
        error={f.err('sessionName')}
      />
      <Picker
        label="Project"
        kind="project"
        value={project}
        onChange={setProject}
        error={f.err('projectId') ?? f.err('projectMfid')}
        hint="Search by title or slug; leave empty for none"
      />
      <Picker
        label="Instrument"
        kind="instrument"
        value={instrument}
        onChange={setInstrument}
        error={f.err('instrumentMfid') ?? f.err('instrumentId')}
      />
      <Picker label="Sample" kind="sample" value={sample} onChange={setSample} hint="The sample measured" />
      {forOthers && (
        <Picker
          label="Owner"
          kind="user"
          value={owner}
          onChange={setOwner}
          error={f.err('owner')}
          hint="Leave empty to own it yourself"
        />
      )}
      <label class="check">
        <input type="checkbox" checked={isPublic} onChange={(e) => setPublic(e.currentTarget.checked)} />
        Public (every signed-in user may read it)
      </label>
      <button type="submit" disabled={f.pending}>
        Create dataset
      </button>
    </form>
  );
}

/**
 * `/new/<kind>`: a form for a new project, instrument, sample or dataset, with pickers for its
 * project, instrument, sample and owner; the API's validation messages are shown by the field at
 * fault. Offered by what the caller may create on this request (`me.capabilities`): projects and
 * instruments are for platform administrators acting elevated. `?project=<slug>` preselects a project.
 */
export function CreatePage({ kind, project }: { kind: CreateKind; project?: string | null }) {
  const caps = useQuery(CreateCapabilities, {});
  const title = TITLES[kind];
  const c = caps.data?.me.capabilities;
  const allowed = c
    ? {
        project: c.canCreateProject,
        instrument: c.canRegisterInstrument,
        sample: c.canCreateSample,
        dataset: c.canCreateDataset,
      }[kind]
    : false;
  const forOthers = c?.canCreateForOthers ?? false;
  const preset = project ? { value: project, label: project } : null;
  return (
    <section aria-labelledby="create-title">
      <h1 id="create-title">{title}</h1>
      {caps.error && <p role="alert">{caps.error}</p>}
      {c && !allowed && (
        <p class="notice">
          {kind === 'project' || kind === 'instrument'
            ? `Creating ${kind}s is for platform administrators${caps.data?.me.canElevate ? ': elevate to administrator first (at the top of the page)' : ''}.`
            : `Your account may not create ${kind}s: ask a platform administrator for the contributor role.`}
        </p>
      )}
      {c && allowed && kind === 'project' && <ProjectForm forOthers={forOthers} />}
      {c && allowed && kind === 'instrument' && <InstrumentForm forOthers={forOthers} />}
      {c && allowed && kind === 'sample' && <SampleForm forOthers={forOthers} project={preset} />}
      {c && allowed && kind === 'dataset' && <DatasetForm forOthers={forOthers} project={preset} />}
      <p class="sub">
        Create: <a href="/new/project">a project</a> · <a href="/new/instrument">an instrument</a> ·{' '}
        <a href="/new/sample">a sample</a> · <a href="/new/dataset">a dataset</a>
      </p>
    </section>
  );
}

/**
 * What an empty catalog says instead of "0 datasets found": what to do first, by what the caller
 * may create.
 */
export function Welcome() {
  const caps = useQuery(CreateCapabilities, {});
  const c = caps.data?.me.capabilities;
  if (!c) return null;
  return (
    <div class="welcome" role="region" aria-labelledby="welcome-title">
      <h2 id="welcome-title">Nothing here yet</h2>
      <p>You cannot see any dataset yet. To start:</p>
      <ol>
        {c.canCreateProject ? (
          <li>
            <a href="/new/project">Create a project</a> to gather your team's records (and{' '}
            <a href="/new/instrument">register an instrument</a>).
          </li>
        ) : (
          <li>
            Join a project: its lead or a platform administrator adds you
            {caps.data?.me.canElevate ? ' (or elevate to administrator to create one)' : ''}; or{' '}
            <a href="/projects">browse the projects</a>.
          </li>
        )}
        {c.canCreateSample && (
          <li>
            <a href="/new/sample">Describe a sample</a> you measured.
          </li>
        )}
        {c.canCreateDataset && (
          <li>
            <a href="/new/dataset">Create a dataset</a>, then upload its files on its page.
          </li>
        )}
      </ol>
    </div>
  );
}
