import { useState } from 'preact/hooks';
import { graphql } from '../gql';
import type { FilterChoicesQuery } from '../gql/graphql';
import { OPERATORS, searchUrl, type Condition, type Search } from './find-query';

export const Choices = graphql(`
  query FilterChoices {
    me {
      projects {
        project {
          uniqueId
          projectId
          title
        }
      }
    }
    instruments(first: 200) {
      nodes {
        uniqueId
        instrumentName
      }
    }
  }
`);

/** The search and its filters; submitting puts them in the URL (which runs the search). */
export function SearchForm({
  initial,
  choices,
  onSearch,
}: {
  initial: Search;
  choices: FilterChoicesQuery | null;
  onSearch: (url: string) => void;
}) {
  const [s, setS] = useState<Search>(initial);
  const set = (field: keyof Omit<Search, 'conditions'>) => (e: Event) => {
    setS({ ...s, [field]: (e.currentTarget as HTMLInputElement | HTMLSelectElement).value });
  };
  const setCondition = (i: number, patch: Partial<Condition>) => {
    setS({ ...s, conditions: s.conditions.map((c, j) => (i === j ? { ...c, ...patch } : c)) });
  };
  return (
    <form
      role="search"
      class="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(searchUrl(s));
      }}
    >
      <div class="searchline">
        <label for="q">Search</label>
        <input
          id="q"
          type="search"
          value={s.q}
          onInput={set('q')}
          placeholder="Words in names and metadata"
        />
        <button type="submit">Search</button>
        <button type="button" onClick={() => onSearch('/')}>
          Clear filters
        </button>
      </div>
      <fieldset class="filters">
        <legend>Filters</legend>
        <label>
          Project
          <select value={s.project} onChange={set('project')}>
            <option value="">Any</option>
            {choices?.me.projects.map(({ project: p }) => (
              <option key={p.projectId} value={p.projectId}>
                {p.title ?? p.projectId}
              </option>
            ))}
            {s.project && !choices?.me.projects.some(({ project: p }) => p.projectId === s.project) && (
              <option value={s.project}>{s.project}</option>
            )}
          </select>
        </label>
        <label>
          Instrument
          <select value={s.instrument} onChange={set('instrument')}>
            <option value="">Any</option>
            {choices?.instruments.nodes.map((i) => (
              <option key={i.uniqueId} value={i.uniqueId}>
                {i.instrumentName}
              </option>
            ))}
            {s.instrument && !choices?.instruments.nodes.some((i) => i.uniqueId === s.instrument) && (
              <option value={s.instrument}>{s.instrument}</option>
            )}
          </select>
        </label>
        <label>
          Measurement
          <input value={s.measurement} onInput={set('measurement')} />
        </label>
        <label>
          Keyword
          <input value={s.keyword} onInput={set('keyword')} />
        </label>
        {s.keywordExact && (
          <p class="exact-keyword">
            Keyword exactly <strong>{s.keywordExact}</strong>{' '}
            <button type="button" onClick={() => onSearch(searchUrl({ ...s, keywordExact: '' }))}>
              Any keyword
            </button>
          </p>
        )}
        <label>
          Data type
          <input value={s.dataType} onInput={set('dataType')} />
        </label>
        <label>
          Owner (ORCID)
          <input value={s.owner} onInput={set('owner')} />
        </label>
        <label>
          Visibility
          <select value={s.visibility} onChange={set('visibility')}>
            <option value="">Any</option>
            <option value="public">Public</option>
            <option value="private">Private</option>
          </select>
        </label>
      </fieldset>
      <fieldset class="conditions">
        <legend>Metadata conditions</legend>
        {s.conditions.map((c, i) => (
          <div class="condition" key={i}>
            <label>
              Path
              <input
                value={c.path}
                placeholder="e.g. sample.temperature"
                onInput={(e) => setCondition(i, { path: e.currentTarget.value })}
              />
            </label>
            <label>
              Operator
              <select
                value={c.op}
                onChange={(e) => setCondition(i, { op: e.currentTarget.value as Condition['op'] })}
              >
                {OPERATORS.map((o) => (
                  <option key={o.op} value={o.op}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
            {c.op !== 'exists' && (
              <label>
                Value
                <input
                  value={c.value}
                  placeholder='300, true or "text"'
                  onInput={(e) => setCondition(i, { value: e.currentTarget.value })}
                />
              </label>
            )}
            <button
              type="button"
              onClick={() => setS({ ...s, conditions: s.conditions.filter((_, j) => j !== i) })}
            >
              Remove condition {i + 1}
            </button>
          </div>
        ))}
        <button
          type="button"
          onClick={() => setS({ ...s, conditions: [...s.conditions, { path: '', op: 'eq', value: '' }] })}
        >
          Add a metadata condition
        </button>
        <p class="hint" id="unit-hint">
          Values may carry units: <code>290 K</code>, <code>25 degC</code>, <code>1.5 GPa</code>. “Greater
          than <code>290 K</code>” also finds <code>30 degC</code>.
        </p>
      </fieldset>
    </form>
  );
}
