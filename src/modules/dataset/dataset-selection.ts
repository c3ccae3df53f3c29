import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import { selectedFields } from '../../core/graphql/selection';
import type { DatasetListInclude } from './dataset.query';
import type { DatasetInclude } from './dataset-row';

/**
 * What a GraphQL selection of `Dataset` nodes (`fields`, by name) needs their rows to include:
 * any other field is answered from the columns or through its own loader.
 */
function includeOf(fields: Map<string, FieldNode[]>, info: GraphQLResolveInfo): DatasetInclude {
  const has = (...names: string[]) => names.some((n) => fields.has(n));
  return {
    owner: has('owner'),
    project: has('project', 'projectId'),
    instrument: has('instrument', 'instrumentId', 'instrumentName'),
    keywords: has('keywords'),
    firstThumbnail: has('firstThumbnail'),
    fileCount: selectedFields(fields.get('files') ?? [], info.fragments).has('totalCount'),
  };
}

/** What the `Dataset` being resolved (a single read, a write) needs its row to include. */
export function nodeInclude(info: GraphQLResolveInfo): DatasetInclude {
  return includeOf(selectedFields(info.fieldNodes, info.fragments), info);
}

/**
 * What the `DatasetConnection` being resolved needs of its page: what its nodes (`nodes` and
 * `edges.node`) select, and the total when it is selected together with the page (a total alone
 * runs its count alone).
 */
export function listInclude(info: GraphQLResolveInfo): DatasetListInclude {
  const connection = selectedFields(info.fieldNodes, info.fragments);
  const edges = selectedFields(connection.get('edges') ?? [], info.fragments);
  const nodes = [...(connection.get('nodes') ?? []), ...(edges.get('node') ?? [])];
  const page = connection.has('edges') || connection.has('nodes') || connection.has('pageInfo');
  return {
    ...includeOf(selectedFields(nodes, info.fragments), info),
    total: page && (connection.has('totalCount') || connection.has('totalCountIsExact')),
  };
}
