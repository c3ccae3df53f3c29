import { graphql } from '../gql';
import type { DatasetFilterInput } from '../gql/graphql';

interface FacetValue {
  value: string;
  label?: string | null;
  count: number;
}
import { useQuery } from '../hooks';
import { searchUrl, type Search } from './find-query';

const FacetsQuery = graphql(`
  query DatasetFacets($filter: DatasetFilterInput) {
    datasetFacets(filter: $filter) {
      total
      capped
      measurement {
        value
        label
        count
      }
      dataType {
        value
        label
        count
      }
      keyword {
        value
        label
        count
      }
      owner {
        value
        label
        count
      }
      instrument {
        value
        label
        count
      }
      project {
        value
        label
        count
      }
      public {
        value
        label
        count
      }
    }
  }
`);

type Dimension = 'measurement' | 'dataType' | 'keyword' | 'owner' | 'instrument' | 'project' | 'public';

const TITLES: [Dimension, string][] = [
  ['project', 'Project'],
  ['instrument', 'Instrument'],
  ['measurement', 'Measurement'],
  ['keyword', 'Keyword'],
  ['dataType', 'Data type'],
  ['owner', 'Owner'],
  ['public', 'Visibility'],
];

/** The search with one more filter set: the link of a facet value. */
function refine(search: Search, dim: Dimension, value: string, projects: Map<string, string>): Search {
  switch (dim) {
    case 'public':
      return { ...search, visibility: value === 'true' ? 'public' : 'private' };
    case 'owner':
      return { ...search, owner: value };
    case 'keyword':
      // exactly the keyword counted (the typed keyword filter is a substring in any case, and
      // would list more than the count)
      return { ...search, keywordExact: value };
    case 'project':
      // the URL names your projects by slug (readable, shareable), others by the MFID facets count by
      return { ...search, project: projects.get(value) ?? value };
    default:
      return { ...search, [dim]: value };
  }
}

/**
 * Counts of the datasets the search selects, per filter dimension (the 20 most frequent values
 * each); a value is a link to the search narrowed to it.
 */
export function Facets({
  search,
  filter,
  projects,
}: {
  search: Search;
  filter: DatasetFilterInput;
  projects: Map<string, string>;
}) {
  const q = useQuery(FacetsQuery, { filter });
  const facets = q.data?.datasetFacets;
  if (!facets) return null;
  const label = (dim: Dimension, v: FacetValue) =>
    dim === 'public' ? (v.value === 'true' ? 'public' : 'private') : (v.label ?? v.value);
  return (
    <nav class="facets" aria-label="Refine by">
      {TITLES.filter(([dim]) => facets[dim].length > 0).map(([dim, title]) => (
        <section key={dim} aria-label={`Counts by ${title.toLowerCase()}`}>
          <h2>{title}</h2>
          <ul>
            {facets[dim].map((v) => (
              <li key={v.value}>
                <a href={searchUrl(refine(search, dim, v.value, projects))}>
                  {label(dim, v)} <span class="n">({v.count})</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {facets.capped && (
        <p class="hint">
          Keyword counts (and, for a text, keyword or metadata search, all counts) are over the newest 2,000
          of the {facets.total} matches.
        </p>
      )}
    </nav>
  );
}
