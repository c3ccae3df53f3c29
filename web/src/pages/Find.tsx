import { useEffect, useState } from 'preact/hooks';
import { graphql } from '../gql';
import type { DatasetListQuery } from '../gql/graphql';
import { request } from '../client';
import { useQuery } from '../hooks';
import { navigate, useLocation } from '../router';
import { Thumb } from '../components/Thumb';
import { Choices, SearchForm } from './SearchForm';
import { Facets } from './Facets';
import { readSearch, toFilter } from './find-query';

const PAGE = 25;

const DatasetList = graphql(`
  query DatasetList($first: Int, $after: String, $filter: DatasetFilterInput) {
    datasets(first: $first, after: $after, filter: $filter) {
      totalCount
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
      thumbnailB64str
      thumbnailName
    }
  }
`);

type Row = DatasetListQuery['datasets']['nodes'][number];

/** Find: the dataset list for the search in the URL, a page at a time (keyset cursors). */
export function Find() {
  const { query } = useLocation();
  const search = readSearch(query);
  const filter = toFilter(search);
  const list = useQuery(DatasetList, { first: PAGE, filter });
  const choices = useQuery(Choices, {});
  const [more, setMore] = useState<{ rows: Row[]; cursor: string | null | undefined; hasNext: boolean }>({
    rows: [],
    cursor: undefined,
    hasNext: false,
  });
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<string | null>(null);
  useEffect(() => {
    setMore({ rows: [], cursor: undefined, hasNext: false });
  }, [list.data]);

  const first = list.data?.datasets.nodes;
  const rows = first ? [...first, ...more.rows] : [];
  const hasNext =
    more.cursor !== undefined ? more.hasNext : (list.data?.datasets.pageInfo.hasNextPage ?? false);
  const cursor = more.cursor !== undefined ? more.cursor : list.data?.datasets.pageInfo.endCursor;
  const total = list.data?.datasets.totalCount;
  const loading = list.loading;
  const error = list.error ?? moreError;
  const projects = new Map(
    (choices.data?.me.projects ?? []).map(({ project: p }) => [p.uniqueId, p.projectId]),
  );

  const loadMore = async () => {
    setLoadingMore(true);
    setMoreError(null);
    try {
      const next = await request(DatasetList, { first: PAGE, after: cursor, filter });
      setMore((m) => ({
        rows: [...m.rows, ...next.datasets.nodes],
        cursor: next.datasets.pageInfo.endCursor,
        hasNext: next.datasets.pageInfo.hasNextPage,
      }));
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
          <p role="status" class="count">
            {loading
              ? 'Searching…'
              : total !== undefined
                ? `${total} dataset${total === 1 ? '' : 's'} found`
                : ''}
          </p>
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
          {rows.length > 0 && (
            <table class="results">
              <caption class="visually-hidden">Datasets matching the search</caption>
              <thead>
                <tr>
                  <th scope="col">
                    <span class="visually-hidden">Thumbnail</span>
                  </th>
                  <th scope="col">Name</th>
                  <th scope="col">Measurement</th>
                  <th scope="col">Data type</th>
                  <th scope="col">Project</th>
                  <th scope="col">Instrument</th>
                  <th scope="col">Owner</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((d) => (
                  <tr key={d.uniqueId}>
                    <td class="thumbcell">{d.firstThumbnail && <Thumb t={d.firstThumbnail} size={48} />}</td>
                    <td>
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
                      <time dateTime={d.creationTime}>{d.creationTime.slice(0, 10)}</time>
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
