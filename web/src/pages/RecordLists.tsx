import { useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { graphql } from '../gql';
import { useQuery } from '../hooks';
import { navigate, useLocation } from '../router';
import { DataTable, type Column } from '../components/DataTable';
import { MIN_CHARS } from '../components/Picker';
import { userName } from '../components/Fields';

const PAGE = 25;

/** The URL of `path` with these query parameters (empty ones left out). */
function urlOf(path: string, params: Record<string, string | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** A facet: values with their counts, each a link narrowing the search (the chosen one marked). */
function Facet({
  title,
  values,
  chosen,
  href,
}: {
  title: string;
  values: { value: string; label: string; count: number | null }[];
  chosen: string | null;
  href: (value: string | null) => string;
}) {
  if (!values.length) return null;
  return (
    <div class="facet">
      <h2>{title}</h2>
      <ul>
        {values.map((v) => (
          <li key={v.value}>
            <a
              href={href(chosen === v.value ? null : v.value)}
              aria-current={chosen === v.value ? 'true' : undefined}
            >
              {v.label}
            </a>
            {v.count !== null && <span class="n"> {v.count}</span>}
          </li>
        ))}
      </ul>
      {chosen && (
        <a class="sub" href={href(null)}>
          Any {title.toLowerCase()}
        </a>
      )}
    </div>
  );
}

/** The name box of a list page: a typo-tolerant search by name (three characters at least). */
function NameSearch({
  label,
  initial,
  onSearch,
  children,
}: {
  label: string;
  initial: string;
  onSearch: (q: string) => void;
  children?: ComponentChildren;
}) {
  const [q, setQ] = useState(initial);
  const short = q.trim().length > 0 && q.trim().length < MIN_CHARS;
  return (
    <form
      class="listsearch"
      role="search"
      aria-label="Search by name"
      onSubmit={(e) => {
        e.preventDefault();
        if (!short) onSearch(q.trim());
      }}
    >
      <label>
        {label}{' '}
        <input
          type="search"
          value={q}
          onInput={(e) => setQ(e.currentTarget.value)}
          aria-describedby="listsearch-hint"
        />
      </label>
      {children}
      <button type="submit" disabled={short}>
        Search
      </button>
      <span id="listsearch-hint" class="hint">
        {short ? `At least ${MIN_CHARS} characters` : 'Typos are forgiven'}
      </span>
    </form>
  );
}

function More({ shown, hasMore, onMore }: { shown: number; hasMore: boolean; onMore: () => void }) {
  if (!hasMore) return null;
  return (
    <button type="button" onClick={onMore} disabled={shown >= 1000}>
      Show {PAGE} more
    </button>
  );
}

// ---- samples

const SampleList = graphql(`
  query SampleListPage($first: Int!, $filter: SampleFilterInput) {
    samples(first: $first, filter: $filter) {
      totalCount
      pageInfo {
        hasNextPage
      }
      nodes {
        ...SampleListRow
      }
    }
  }
`);
const SampleSearch = graphql(`
  query SampleSearchPage($q: String!, $projectId: String) {
    searchSamples(q: $q, projectId: $projectId, first: 50) {
      ...SampleListRow
    }
  }
`);
graphql(`
  fragment SampleListRow on Sample {
    uniqueId
    sampleName
    sampleType
    public
    creationTime
    project {
      projectId
      title
    }
    owner {
      uniqueId
      username
      firstName
      lastName
    }
  }
`);
const SampleFacetsQuery = graphql(`
  query SampleFacetsPage($filter: SampleFilterInput) {
    type: sampleFacets(field: sample_type, filter: $filter) {
      value
      label
      count
    }
    project: sampleFacets(field: project, filter: $filter) {
      value
      label
      count
    }
    owner: sampleFacets(field: owner, filter: $filter) {
      value
      label
      count
    }
  }
`);

interface SampleRowT {
  uniqueId: string;
  sampleName?: string | null;
  sampleType?: string | null;
  public: boolean;
  creationTime: string;
  project?: { projectId: string; title?: string | null } | null;
  owner?: {
    uniqueId: string;
    username?: string | null;
    firstName?: string | null;
    lastName?: string | null;
  } | null;
}

const SAMPLE_COLUMNS: Column<SampleRowT>[] = [
  {
    header: 'Name',
    cell: (s) => (
      <>
        <a href={`/samples/${encodeURIComponent(s.uniqueId)}`}>{s.sampleName ?? s.uniqueId}</a>
        {!s.public && <span class="badge">private</span>}
      </>
    ),
  },
  { header: 'Type', cell: (s) => s.sampleType },
  {
    header: 'Project',
    cell: (s) =>
      s.project && (
        <a href={`/projects/${encodeURIComponent(s.project.projectId)}`}>
          {s.project.title ?? s.project.projectId}
        </a>
      ),
  },
  { header: 'Owner', cell: (s) => userName(s.owner) },
  { header: 'Created', cell: (s) => <time dateTime={s.creationTime}>{s.creationTime.slice(0, 10)}</time> },
];

/**
 * `/samples`: the samples the caller may read, newest first, narrowed by type, project, owner and
 * public (facets with counts: `sampleFacets`), or found by name (`searchSamples`, typo-tolerant,
 * the best 50; the project narrows it, the other filters apply to those 50).
 */
export function SamplesPage() {
  const { query } = useLocation();
  const q = query.get('q') ?? '';
  const type = query.get('type');
  const project = query.get('project');
  const owner = query.get('owner');
  const pub = query.get('public');
  const [limit, setLimit] = useState(PAGE);
  const filter = {
    sampleType: type ?? undefined,
    projectMfid: project ?? undefined,
    ownerOrcid: owner ?? undefined,
    public: pub === null ? undefined : pub === 'true',
  };
  const list = useQuery(SampleList, { first: limit, filter }, q !== '');
  const found = useQuery(SampleSearch, { q, projectId: project ?? undefined }, q === '');
  const facets = useQuery(SampleFacetsQuery, { filter });
  const params = { q, type, project, owner, public: pub };
  const href = (k: keyof typeof params) => (v: string | null) => urlOf('/samples', { ...params, [k]: v });
  const searched = (found.data?.searchSamples ?? null) as SampleRowT[] | null;
  const rows: SampleRowT[] | null = q
    ? (searched?.filter(
        (s) =>
          (!type || s.sampleType === type) &&
          (!owner || s.owner?.uniqueId === owner) &&
          (pub === null || String(s.public) === pub),
      ) ?? null)
    : (list.data?.samples.nodes ?? null);
  const total = q ? rows?.length : list.data?.samples.totalCount;
  const f = facets.data;
  return (
    <section aria-labelledby="samples-title">
      <h1 id="samples-title">Samples</h1>
      <p>
        <a href={urlOf('/new/sample', { project: null })}>New sample</a>
      </p>
      <NameSearch
        label="Sample name"
        initial={q}
        onSearch={(v) => navigate(urlOf('/samples', { ...params, q: v }))}
      />
      <div class="findlayout">
        <aside class="facets" aria-label="Narrow the samples">
          {f && (
            <>
              <Facet
                title="Type"
                values={f.type.map((v) => ({ value: v.value, label: v.label ?? v.value, count: v.count }))}
                chosen={type}
                href={href('type')}
              />
              <Facet
                title="Project"
                values={f.project.map((v) => ({ value: v.value, label: v.label ?? v.value, count: v.count }))}
                chosen={project}
                href={href('project')}
              />
              <Facet
                title="Owner"
                values={f.owner.map((v) => ({ value: v.value, label: v.label ?? v.value, count: v.count }))}
                chosen={owner}
                href={href('owner')}
              />
            </>
          )}
          <Facet
            title="Visibility"
            values={[
              { value: 'true', label: 'public', count: null },
              { value: 'false', label: 'private', count: null },
            ]}
            chosen={pub}
            href={href('public')}
          />
        </aside>
        <div>
          <p role="status" class="count">
            {total === undefined
              ? ''
              : `${total} sample${total === 1 ? '' : 's'}${q ? ` named like “${q}”` : ''}`}
          </p>
          <DataTable
            caption="Samples"
            columns={SAMPLE_COLUMNS}
            rows={rows}
            rowKey={(s) => s.uniqueId}
            loading={q ? found.loading : list.loading}
            error={q ? found.error : list.error}
            empty={
              <>
                No sample matches. <a href="/new/sample">Describe a new sample</a>.
              </>
            }
          />
          {!q && (
            <More
              shown={limit}
              hasMore={list.data?.samples.pageInfo.hasNextPage ?? false}
              onMore={() => setLimit((n) => Math.min(1000, n + PAGE))}
            />
          )}
        </div>
      </div>
    </section>
  );
}

// ---- projects

const ProjectList = graphql(`
  query ProjectListPage($first: Int!, $filter: ProjectFilterInput, $mine: ProjectFilterInput!) {
    projects(first: $first, filter: $filter) {
      totalCount
      pageInfo {
        hasNextPage
      }
      nodes {
        ...ProjectListRow
      }
    }
    all: projects(first: 1) {
      totalCount
    }
    mine: projects(first: 1, filter: $mine) {
      totalCount
    }
  }
`);
const ProjectSearch = graphql(`
  query ProjectSearchPage($q: String!) {
    searchProjects(q: $q, first: 50) {
      ...ProjectListRow
    }
  }
`);
graphql(`
  fragment ProjectListRow on Project {
    uniqueId
    projectId
    title
    organization
    status
    lead {
      uniqueId
      username
      firstName
      lastName
    }
  }
`);
const MeId = graphql(`
  query ListMe {
    me {
      user {
        uniqueId
      }
      capabilities {
        canCreateProject
        canRegisterInstrument
      }
    }
  }
`);

interface ProjectRowT {
  uniqueId: string;
  projectId: string;
  title?: string | null;
  organization?: string | null;
  status: string;
  lead: { uniqueId: string; username?: string | null; firstName?: string | null; lastName?: string | null };
}

const PROJECT_COLUMNS: Column<ProjectRowT>[] = [
  {
    header: 'Title',
    cell: (p) => <a href={`/projects/${encodeURIComponent(p.projectId)}`}>{p.title ?? p.projectId}</a>,
  },
  { header: 'Slug', cell: (p) => <code>{p.projectId}</code> },
  { header: 'Organization', cell: (p) => p.organization },
  { header: 'Status', cell: (p) => p.status },
  { header: 'Lead', cell: (p) => userName(p.lead) },
];

/**
 * `/projects`: every project (directory records: every signed-in user may find them), or only
 * those the caller holds a role in ("Mine"), or found by title or slug (`searchProjects`).
 */
export function ProjectsPage() {
  const { query } = useLocation();
  const q = query.get('q') ?? '';
  const scope = query.get('scope');
  const me = useQuery(MeId, {});
  const myId = me.data?.me.user.uniqueId;
  const [limit, setLimit] = useState(PAGE);
  const mineFilter = { accessibleToUser: [myId ?? ''] };
  const list = useQuery(
    ProjectList,
    { first: limit, filter: scope === 'mine' ? mineFilter : undefined, mine: mineFilter },
    q !== '' || !myId,
  );
  const found = useQuery(ProjectSearch, { q }, q === '');
  const params = { q, scope };
  const rows = (q ? found.data?.searchProjects : list.data?.projects.nodes) ?? null;
  const total = q ? rows?.length : list.data?.projects.totalCount;
  return (
    <section aria-labelledby="projects-title">
      <h1 id="projects-title">Projects</h1>
      {me.data?.me.capabilities.canCreateProject && (
        <p>
          <a href="/new/project">New project</a>
        </p>
      )}
      <NameSearch
        label="Project title or slug"
        initial={q}
        onSearch={(v) => navigate(urlOf('/projects', { ...params, q: v }))}
      />
      <div class="findlayout">
        <aside class="facets" aria-label="Narrow the projects">
          {!q && (
            <Facet
              title="Projects"
              values={[
                { value: 'all', label: 'All', count: list.data?.all.totalCount ?? null },
                { value: 'mine', label: 'Mine (a role in them)', count: list.data?.mine.totalCount ?? null },
              ]}
              chosen={scope === 'mine' ? 'mine' : 'all'}
              href={(v) => urlOf('/projects', { ...params, scope: v === 'mine' ? 'mine' : null })}
            />
          )}
        </aside>
        <div>
          <p role="status" class="count">
            {total === undefined ? '' : `${total} project${total === 1 ? '' : 's'}`}
          </p>
          <DataTable
            caption="Projects"
            columns={PROJECT_COLUMNS}
            rows={rows}
            rowKey={(p) => p.uniqueId}
            loading={q ? found.loading : list.loading || me.loading}
            error={q ? found.error : (list.error ?? me.error)}
            empty="No project matches."
          />
          {!q && (
            <More
              shown={limit}
              hasMore={list.data?.projects.pageInfo.hasNextPage ?? false}
              onMore={() => setLimit((n) => Math.min(1000, n + PAGE))}
            />
          )}
        </div>
      </div>
    </section>
  );
}

// ---- instruments

const InstrumentList = graphql(`
  query InstrumentListPage($first: Int!, $status: [InstrumentStatus!]) {
    instruments(first: $first, status: $status) {
      totalCount
      pageInfo {
        hasNextPage
      }
      nodes {
        ...InstrumentListRow
      }
    }
    active: instruments(first: 1, status: [active]) {
      totalCount
    }
    maintenance: instruments(first: 1, status: [maintenance]) {
      totalCount
    }
    decommissioned: instruments(first: 1, status: [decommissioned]) {
      totalCount
    }
  }
`);
const InstrumentSearch = graphql(`
  query InstrumentSearchPage($q: String!) {
    searchInstruments(q: $q, first: 50) {
      ...InstrumentListRow
    }
  }
`);
graphql(`
  fragment InstrumentListRow on Instrument {
    uniqueId
    instrumentName
    instrumentType
    manufacturer
    location
    status
    owner {
      uniqueId
      username
      firstName
      lastName
    }
  }
`);

interface InstrumentRowT {
  uniqueId: string;
  instrumentName: string;
  instrumentType?: string | null;
  manufacturer?: string | null;
  location?: string | null;
  status: string;
  owner: { uniqueId: string; username?: string | null; firstName?: string | null; lastName?: string | null };
}

const INSTRUMENT_COLUMNS: Column<InstrumentRowT>[] = [
  {
    header: 'Name',
    cell: (i) => <a href={`/instruments/${encodeURIComponent(i.uniqueId)}`}>{i.instrumentName}</a>,
  },
  { header: 'Type', cell: (i) => i.instrumentType },
  { header: 'Manufacturer', cell: (i) => i.manufacturer },
  { header: 'Location', cell: (i) => i.location },
  { header: 'Status', cell: (i) => i.status },
  { header: 'Operator', cell: (i) => userName(i.owner) },
];

const STATUSES = ['active', 'maintenance', 'decommissioned'] as const;
type Status = (typeof STATUSES)[number];

/**
 * `/instruments`: every instrument (directory records), narrowed by status (a facet with counts),
 * or found by name, type or manufacturer (`searchInstruments`).
 */
export function InstrumentsPage() {
  const { query } = useLocation();
  const q = query.get('q') ?? '';
  const raw = query.get('status');
  const status = STATUSES.includes(raw as Status) ? (raw as Status) : null;
  const [limit, setLimit] = useState(PAGE);
  const me = useQuery(MeId, {});
  const list = useQuery(InstrumentList, { first: limit, status: status ? [status] : undefined }, q !== '');
  const found = useQuery(InstrumentSearch, { q }, q === '');
  const params = { q, status };
  const rows = (q ? found.data?.searchInstruments : list.data?.instruments.nodes) ?? null;
  const total = q ? rows?.length : list.data?.instruments.totalCount;
  const d = list.data;
  return (
    <section aria-labelledby="instruments-title">
      <h1 id="instruments-title">Instruments</h1>
      {me.data?.me.capabilities.canRegisterInstrument && (
        <p>
          <a href="/new/instrument">New instrument</a>
        </p>
      )}
      <NameSearch
        label="Instrument name, type or manufacturer"
        initial={q}
        onSearch={(v) => navigate(urlOf('/instruments', { ...params, q: v }))}
      />
      <div class="findlayout">
        <aside class="facets" aria-label="Narrow the instruments">
          {!q && d && (
            <Facet
              title="Status"
              values={STATUSES.map((s) => ({ value: s, label: s, count: d[s].totalCount }))}
              chosen={status}
              href={(v) => urlOf('/instruments', { ...params, status: v })}
            />
          )}
        </aside>
        <div>
          <p role="status" class="count">
            {total === undefined ? '' : `${total} instrument${total === 1 ? '' : 's'}`}
          </p>
          <DataTable
            caption="Instruments"
            columns={INSTRUMENT_COLUMNS}
            rows={rows}
            rowKey={(i) => i.uniqueId}
            loading={q ? found.loading : list.loading}
            error={q ? found.error : list.error}
            empty="No instrument matches."
          />
          {!q && (
            <More
              shown={limit}
              hasMore={list.data?.instruments.pageInfo.hasNextPage ?? false}
              onMore={() => setLimit((n) => Math.min(1000, n + PAGE))}
            />
          )}
        </div>
      </div>
    </section>
  );
}
