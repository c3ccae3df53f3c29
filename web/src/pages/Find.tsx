import { When } from '../components/When';
import { useState } from 'preact/hooks';
import { graphql } from '../gql';
import type { DatasetListQuery } from '../gql/graphql';
import { request } from '../client';
import { useQuery } from '../hooks';
import { navigate, replaceAddress, useLocation } from '../router';
import { Thumb } from '../components/Thumb';
import { Choices, SearchForm } from './SearchForm';
import { Facets } from './Facets';
import { Welcome } from './Create';
import { readSearch, searchUrl, toFilter, toOrder, type Search } from './find-query';
import type { DatasetOrderField } from '../gql/graphql';
import { BatchHistory, BatchPanel, RecentBatches } from '../components/BatchPanel';

const PAGE = 25;

const DatasetList = graphql(`
  query DatasetList($first: Int, $after: String, $filter: DatasetFilterInput, $orderBy: DatasetOrderInput) {
    datasets(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {
      totalCount
      totalCountIsExact
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        ...DatasetRow
      }
    }
  }
`);

graphql(`
  fragment DatasetRow on Dataset {
    uniqueId
    datasetName
    measurement
    dataType
    creationTime
    public
    ownerOrcid
    owner {
      uniqueId
      username
    }
    project {
      projectId
      title
    }
    instrument {
      uniqueId
      instrumentName
    }
    firstThumbnail {
      id
      mimeType
      url
      thumbnailName
    }
  }
`);

type Row = DatasetListQuery['datasets']['nodes'][number];

/**
 * A column header that sorts the list by its column: a first click ascending (newest first for
 * dates), the next reverses; the order goes in the URL like the rest of the search.
 */
function SortHeader({ search, field, label }: { search: Search; field: DatasetOrderField; label: string }) {
  const dates = field === 'creationTime';
  // the default order (no sort in the URL) is newest first: the Created column, descending
  const current = search.sort || 'creationTime';
  const dir = search.sort ? search.dir : 'desc';
  const active = current === field;
  const next: Search = {
    ...search,
    sort: field,
    dir: active ? (dir === 'asc' ? 'desc' : 'asc') : dates ? 'desc' : 'asc',
  };
  return (
    <th scope="col" aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : undefined}>
      <a
        href={searchUrl(next)}
        class="sort"
        aria-label={`Sort by ${label}, ${next.dir === 'asc' ? 'ascending' : 'descending'}`}
      >
        {label}
        {active && <span aria-hidden="true">{dir === 'asc' ? ' ▲' : ' ▼'}</span>}
      </a>
    </th>
  );
}

/** Find: the dataset list for the search in the URL, a page at a time (keyset cursors). */
export function Find() {
  const { query } = useLocation();
  const search = readSearch(query);
  const filter = toFilter(search);
  const orderBy = toOrder(search);
  // how many pages were shown (kept in the address by "Show more", so Back returns to them all)
  const pages = Math.max(1, Math.min(20, Math.floor(Number(query.get('pages'))) || 1));
  const list = useQuery(DatasetList, { first: PAGE * pages, filter, orderBy });
  const choices = useQuery(Choices, {});
  // the pages after the first belong to the list they extend: a new search or sort starts
  // without them in the very render that shows its first page (an effect would leave one
  // render with the new first page above the old rows)
  const [extra, setMore] = useState<{
    of: unknown;
    rows: Row[];
    cursor: string | null | undefined;
    hasNext: boolean;
  }>({ of: undefined, rows: [], cursor: undefined, hasNext: false });
  const more =
    extra.of === list.data ? extra : { of: list.data, rows: [], cursor: undefined, hasNext: false };
  const [loadingMore, setLoadingMore] = useState(false);
  // the rows picked for a batch edit, or every result of the search (`all`)
  const [picked, setPicked] = useState<{ of: string; ids: string[]; all: boolean }>({
    of: '',
    ids: [],
    all: false,
  });
  const selection = picked.of === query.toString() ? picked : { of: query.toString(), ids: [], all: false };
  const pick = (ids: string[], all = false) => setPicked({ of: query.toString(), ids, all });
  const batches = useQuery(RecentBatches, {});
  const [moreError, setMoreError] = useState<string | null>(null);

  const first = list.data?.datasets.nodes;
  const rows = first ? [...first, ...more.rows] : [];
  const hasNext =
    more.cursor !== undefined ? more.hasNext : (list.data?.datasets.pageInfo.hasNextPage ?? false);
  const cursor = more.cursor !== undefined ? more.cursor : list.data?.datasets.pageInfo.endCursor;
  const total = list.data?.datasets.totalCount;
  const loading = list.loading;
  // an empty catalog (nothing readable, no filter) greets the user with what to do first
  const empty = !loading && total === 0 && [...query.keys()].every((k) => k === 'sort' || k === 'dir');
  const error = list.error ?? moreError;
  const projects = new Map(
    (choices.data?.me.projects ?? []).map(({ project: p }) => [p.uniqueId, p.projectId]),
  );

  const loadMore = async () => {
    setLoadingMore(true);
    setMoreError(null);
    try {
      const next = await request(DatasetList, { first: PAGE, after: cursor, filter, orderBy });
      const of = list.data;
      setMore((m) => ({
        of,
        rows: [...(m.of === of ? m.rows : []), ...next.datasets.nodes],
        cursor: next.datasets.pageInfo.endCursor,
        hasNext: next.datasets.pageInfo.hasNextPage,
      }));
      const shown = new URLSearchParams(query);
      shown.set(
        'pages',
        String(Math.ceil(((first?.length ?? 0) + more.rows.length + next.datasets.nodes.length) / PAGE)),
      );
      replaceAddress(`${window.location.pathname}?${shown.toString()}`);
    } catch (e) {
      setMoreError(e instanceof Error ? e.message : String(e));
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <section aria-labelledby="find-title">
      <h1 id="find-title">Datasets</h1>
      <SearchForm
        key={query.toString()}
        initial={search}
        choices={choices.data}
        onSearch={(url) => navigate(url)}
      />
      <div class="findlayout">
        <Facets search={search} filter={filter} projects={projects} />
        <div>
          {empty && <Welcome />}
          <p role="status" class="count">
            {loading
              ? 'Searching…'
              : total !== undefined && !empty
                ? list.data?.datasets.totalCountIsExact === false
                  ? `More than ${total} datasets found`
                  : `${total} dataset${total === 1 ? '' : 's'} found`
                : ''}
          </p>
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
          {rows.length > 0 && total !== undefined && (
            <div class="batch-select">
              {selection.all ? (
                <button type="button" onClick={() => pick([])}>
                  Clear the selection
                </button>
              ) : (
                <button type="button" onClick={() => pick([], true)}>
                  Select all {total} results of this search
                </button>
              )}
            </div>
          )}
          {!selection.all && selection.ids.length > 0 && (
            <p>
              <a class="button" href={`/publish?datasets=${selection.ids.map(encodeURIComponent).join(',')}`}>
                Publish…
              </a>{' '}
              <span class="hint">
                the {selection.ids.length} selected dataset{selection.ids.length === 1 ? '' : 's'} as a
                publication
              </span>
            </p>
          )}
          {(selection.all || selection.ids.length > 0) && (
            <BatchPanel
              ids={selection.ids}
              all={selection.all}
              filter={filter}
              total={total}
              onChanged={() => {
                list.reload();
                batches.reload();
              }}
            />
          )}
          <BatchHistory
            batches={batches.data?.datasetBatches ?? []}
            onChanged={() => {
              list.reload();
              batches.reload();
            }}
          />
          {rows.length > 0 && (
            <table class="results">
              <caption class="visually-hidden">Datasets matching the search</caption>
              <thead>
                <tr>
                  <th scope="col" class="pickcell">
                    <input
                      type="checkbox"
                      aria-label="Select every dataset shown"
                      checked={
                        selection.all ||
                        (rows.length > 0 && rows.every((d) => selection.ids.includes(d.uniqueId)))
                      }
                      onChange={(e) => pick(e.currentTarget.checked ? rows.map((d) => d.uniqueId) : [])}
                    />
                  </th>
                  <th scope="col">
                    <span class="visually-hidden">Thumbnail</span>
                  </th>
                  <SortHeader search={search} field="datasetName" label="Name" />
                  <SortHeader search={search} field="measurement" label="Measurement" />
                  <SortHeader search={search} field="dataType" label="Data type" />
                  <th scope="col">Project</th>
                  <th scope="col">Instrument</th>
                  <th scope="col">Owner</th>
                  <SortHeader search={search} field="creationTime" label="Created" />
                </tr>
              </thead>
              <tbody>
                {rows.map((d) => (
                  <tr key={d.uniqueId}>
                    <td class="pickcell">
                      <input
                        type="checkbox"
                        aria-label={`Select ${d.datasetName ?? d.uniqueId}`}
                        checked={selection.all || selection.ids.includes(d.uniqueId)}
                        disabled={selection.all}
                        onChange={(e) =>
                          pick(
                            e.currentTarget.checked
                              ? [...selection.ids, d.uniqueId]
                              : selection.ids.filter((x) => x !== d.uniqueId),
                          )
                        }
                      />
                    </td>
                    <td class="thumbcell">{d.firstThumbnail && <Thumb t={d.firstThumbnail} size={48} />}</td>
                    <td class="namecell">
                      <a href={`/datasets/${encodeURIComponent(d.uniqueId)}`}>
                        {d.datasetName ?? d.uniqueId}
                      </a>
                      {!d.public && <span class="badge">private</span>}
                    </td>
                    <td>{d.measurement}</td>
                    <td>{d.dataType}</td>
                    <td>
                      {d.project && (
                        <a href={`/projects/${encodeURIComponent(d.project.projectId)}`}>
                          {d.project.title ?? d.project.projectId}
                        </a>
                      )}
                    </td>
                    <td>
                      {d.instrument && (
                        <a href={`/instruments/${encodeURIComponent(d.instrument.uniqueId)}`}>
                          {d.instrument.instrumentName}
                        </a>
                      )}
                    </td>
                    <td>{d.owner?.username ?? d.ownerOrcid}</td>
                    <td>
                      <When iso={d.creationTime} day />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {hasNext && (
            <button type="button" onClick={() => void loadMore()} disabled={loadingMore}>
              {loadingMore ? 'Loading…' : `Show ${PAGE} more`}
            </button>
          )}
        </div>
      </div>
    </section>
  );
}
