import { useEffect, useRef, useState } from 'preact/hooks';
import { graphql } from '../gql';
import { request } from '../client';

/** What a picker finds: a record or a person, by name. */
export type PickKind = 'user' | 'project' | 'instrument' | 'sample' | 'dataset' | 'record';

/** A choice: `value` is what the API takes (an MFID, a project slug); `label` is what people read. */
export interface Picked {
  value: string;
  label: string;
  /** the secondary text: the MFID, a slug, a username */
  detail?: string;
}

/** The searches are the API's typo-tolerant name searches: at least this many characters. */
export const MIN_CHARS = 3;
const SHOWN = 8;

const FindUsers = graphql(`
  query PickUsers($q: String!, $first: Int!) {
    searchUsers(q: $q, first: $first) {
      uniqueId
      username
      firstName
      lastName
    }
  }
`);
const FindProjects = graphql(`
  query PickProjects($q: String!, $first: Int!) {
    searchProjects(q: $q, first: $first) {
      uniqueId
      projectId
      title
    }
  }
`);
const FindInstruments = graphql(`
  query PickInstruments($q: String!, $first: Int!) {
    searchInstruments(q: $q, first: $first) {
      uniqueId
      instrumentName
      instrumentType
    }
  }
`);
const FindSamples = graphql(`
  query PickSamples($q: String!, $first: Int!) {
    searchSamples(q: $q, first: $first) {
      uniqueId
      sampleName
      sampleType
    }
  }
`);
const FindDatasets = graphql(`
  query PickDatasets($q: String!, $first: Int!) {
    searchDatasets(q: $q, first: $first) {
      uniqueId
      datasetName
      measurement
    }
  }
`);

/** The API's search for `kind`: only what the caller may read (people: public profiles). */
export async function searchFor(kind: PickKind, q: string): Promise<Picked[]> {
  const v = { q, first: SHOWN };
  switch (kind) {
    case 'user':
      return (await request(FindUsers, v)).searchUsers.map((u) => {
        const full = [u.firstName, u.lastName].filter(Boolean).join(' ');
        return {
          value: u.uniqueId,
          label: full || u.username || u.uniqueId,
          detail: [full && u.username, u.uniqueId].filter(Boolean).join(' · '),
        };
      });
    case 'project':
      return (await request(FindProjects, v)).searchProjects.map((p) => ({
        value: p.projectId,
        label: p.title ?? p.projectId,
        detail: p.title ? p.projectId : undefined,
      }));
    case 'instrument':
      return (await request(FindInstruments, v)).searchInstruments.map((i) => ({
        value: i.uniqueId,
        label: i.instrumentName,
        detail: [i.instrumentType, i.uniqueId].filter(Boolean).join(' · '),
      }));
    case 'sample':
      return (await request(FindSamples, v)).searchSamples.map((s) => ({
        value: s.uniqueId,
        label: s.sampleName ?? s.uniqueId,
        detail: [s.sampleType, s.uniqueId].filter(Boolean).join(' · '),
      }));
    case 'dataset':
      return (await request(FindDatasets, v)).searchDatasets.map((d) => ({
        value: d.uniqueId,
        label: d.datasetName ?? d.uniqueId,
        detail: [d.measurement, d.uniqueId].filter(Boolean).join(' · '),
      }));
    case 'record': {
      // a dataset or a sample: both searches, the kind said beside each name
      const [datasets, samples] = await Promise.all([searchFor('dataset', q), searchFor('sample', q)]);
      const tag = (kind: string) => (p: Picked) => ({ ...p, detail: `${kind} · ${p.detail ?? p.value}` });
      return [...datasets.map(tag('dataset')), ...samples.map(tag('sample'))];
    }
  }
}

let seq = 0;

/**
 * A type-ahead picker (the WAI-ARIA combobox pattern, list autocomplete): the text box searches
 * the API by name as one types (from three characters), the suggestions are a listbox (Down/Up
 * move, Enter picks, Escape closes), and the choice shows its name with its MFID beside it. With
 * `freeText`, what was typed is used as it is when nothing is picked (an ORCID, an email, an
 * MFID: whatever the API takes there). `error` is shown under the box and described by it.
 */
export function Picker({
  label,
  kind,
  value,
  onChange,
  freeText = false,
  search: searching = true,
  error,
  hint,
  required = false,
}: {
  label: string;
  kind: PickKind;
  value: Picked | null;
  onChange: (v: Picked | null) => void;
  freeText?: boolean;
  /** false: a plain text box (nothing to search for this kind, e.g. a group name) */
  search?: boolean;
  error?: string | null;
  hint?: string;
  required?: boolean;
}) {
  const [id] = useState(() => `pick${++seq}`);
  const [text, setText] = useState(value?.label ?? '');
  const [options, setOptions] = useState<Picked[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [status, setStatus] = useState('');
  const asked = useRef(0);

  // a value set from outside (a reset, a preset) shows in the box; the box's own changes stay as typed
  const emitted = useRef<string | undefined>(value?.value);
  useEffect(() => {
    if (value?.value === emitted.current) return;
    emitted.current = value?.value;
    setText(value?.label ?? '');
  }, [value?.value]);
  const emit = (v: Picked | null) => {
    emitted.current = v?.value;
    onChange(v);
  };

  const search = (q: string) => {
    const n = ++asked.current;
    if (q.trim().length < MIN_CHARS) {
      setOptions([]);
      setOpen(false);
      setStatus(q.trim() ? `Type at least ${MIN_CHARS} characters to search` : '');
      return;
    }
    setStatus('Searching…');
    window.setTimeout(() => {
      if (n !== asked.current) return;
      searchFor(kind, q.trim()).then(
        (found) => {
          if (n !== asked.current) return;
          setOptions(found);
          setOpen(true);
          setActive(found.length ? 0 : -1);
          setStatus(found.length ? `${found.length} suggestion${found.length === 1 ? '' : 's'}` : 'No match');
        },
        (e: unknown) => {
          if (n !== asked.current) return;
          setOptions([]);
          setOpen(false);
          setStatus(e instanceof Error ? e.message : String(e));
        },
      );
    }, 200);
  };

  const pick = (o: Picked) => {
    asked.current++;
    setText(o.label);
    setOpen(false);
    setOptions([]);
    setStatus('');
    emit(o);
  };

  const onInput = (t: string) => {
    setText(t);
    emit(freeText && t.trim() ? { value: t.trim(), label: t.trim() } : null);
    if (searching) search(t);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open && options.length) setOpen(true);
      setActive((a) => Math.min(options.length - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === 'Enter' && open && active >= 0 && options[active]) {
      e.preventDefault();
      pick(options[active]);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      setOpen(false);
    }
  };

  const listId = `${id}-list`;
  const described = [error ? `${id}-err` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div class="picker">
      <label for={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        id={id}
        type="text"
        role="combobox"
        autocomplete="off"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? `${id}-o${active}` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        aria-required={required || undefined}
        value={text}
        onInput={(e) => onInput(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        onBlur={() => window.setTimeout(() => setOpen(false), 150)}
      />
      <ul id={listId} role="listbox" aria-label="Suggestions" hidden={!open}>
        {options.map((o, i) => (
          <li
            key={o.value}
            id={`${id}-o${i}`}
            role="option"
            aria-selected={i === active}
            class={i === active ? 'active' : undefined}
            onMouseDown={(e) => {
              e.preventDefault();
              pick(o);
            }}
          >
            <span class="pick-label">{o.label}</span>
            {o.detail && <span class="pick-detail">{o.detail}</span>}
          </li>
        ))}
      </ul>
      {value && value.label !== value.value && (
        <span class="pick-chosen sub">{value.detail ?? value.value}</span>
      )}
      <span class="visually-hidden" role="status">
        {status}
      </span>
      {hint && (
        <span id={`${id}-hint`} class="hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-err`} class="error field-error">
          {error}
        </span>
      )}
    </div>
  );
}
