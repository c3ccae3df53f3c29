import { validationError } from '../../core/errors';
import { isMfid } from '../../core/ids';
import { cursorBody, encodeCursor } from '../../core/cursor';

/**
 * SQL pieces of the graph queries. Every edge has the parent as its source: dataset -> child
 * dataset, sample -> child sample, sample -> associated dataset.
 */

/** Edges, parent to child, with their kind and relationship type. */
export const EDGES = `
  select parent_mfid::text as from_id, 'dataset'::text as from_type, child_mfid::text as to_id,
    'dataset'::text as to_type, 'dataset_dataset'::text as kind, relationship_type from dataset_link
  union all select parent_mfid::text, 'sample', child_mfid::text, 'sample', 'sample_sample', relationship_type
    from sample_link
  union all select sample_mfid::text, 'sample', dataset_mfid::text, 'dataset', 'sample_dataset', null
    from dataset_sample`;

/**
 * Adjacency in both orientations: `down` steps from a parent to a child, `up` from a child to
 * a parent. Each branch reads one index (the primary key, or the child / sample index).
 */
export const ADJACENCY = `
  select parent_mfid::text as from_id, 'dataset'::text as from_type, child_mfid::text as to_id,
    'dataset'::text as to_type, 'down'::text as dir from dataset_link
  union all select child_mfid::text, 'dataset', parent_mfid::text, 'dataset', 'up' from dataset_link
  union all select parent_mfid::text, 'sample', child_mfid::text, 'sample', 'down' from sample_link
  union all select child_mfid::text, 'sample', parent_mfid::text, 'sample', 'up' from sample_link
  union all select sample_mfid::text, 'sample', dataset_mfid::text, 'dataset', 'down' from dataset_sample
  union all select dataset_mfid::text, 'dataset', sample_mfid::text, 'sample', 'up' from dataset_sample`;

/** The position of a node in a graph's order: (depth, type, id); depth 0 in project graphs. */
export interface NodeKey {
  depth: number;
  type: 'dataset' | 'sample';
  id: string;
}

/** An opaque cursor for the node after which the next page starts. */
export function encodeGraphCursor(key: NodeKey): string {
  return encodeCursor('g', `${String(key.depth)}:${key.type}:${key.id}`);
}

/** The node key of a cursor, or undefined without one; a 400 for a cursor this server did not issue. */
export function decodeGraphCursor(cursor: string | null | undefined): NodeKey | undefined {
  if (cursor === undefined || cursor === null || cursor === '') return undefined;
  const m = /^(\d{1,5}):(dataset|sample):(.+)$/.exec(cursorBody('g', cursor) ?? '');
  if (m === null || !isMfid(m[3])) throw validationError('after', 'is not a cursor this server issued');
  return { depth: Number(m[1]), type: m[2] as NodeKey['type'], id: m[3] };
}

/**
 * Given the CTEs `nodes(id, type, depth)` (this page's nodes) and `upto(id, type, depth)` (every
 * node of the graph up to and including this page's last, in the graph's order), and a boolean
 * SQL expressions `more` (whether nodes follow this page) and `cut` (whether the walk stopped
 * at its bound), one row with the page's nodes and their
 * display fields, the edges with both ends in `upto` and at least one on this page (so that
 * paging through a graph yields each edge once, on the page of its later end, and never an edge
 * to a node not yet delivered; on a first page, the edges between its nodes), at most `?` of
 * them (the one parameter, passed after the CTEs' own), `more`, `walk_cut` and `found` (whether
 * the graph has nodes at all, on any page).
 */
export function nodesAndEdges(more: string, cut = 'false', found = 'true'): string {
  return `
  , edge_rows as (
     select * from (
       select e.* from nodes p
       join (${EDGES}) e on e.from_id = p.id and e.from_type = p.type
       join upto c on c.id = e.to_id and c.type = e.to_type
       union
       select e.* from nodes c
       join (${EDGES}) e on e.to_id = c.id and e.to_type = c.type
       join upto p on p.id = e.from_id and p.type = e.from_type
     ) e
     order by e.kind, e.from_id, e.to_id
     limit ? + 1)
  select
    (select coalesce(json_agg(json_build_object(
        'id', n.id, 'type', n.type, 'depth', n.depth,
        'name', coalesce(d.dataset_name, s.sample_name),
        'measurement', d.measurement, 'sample_type', s.sample_type, 'description', s.description,
        'project_mfid', coalesce(d.project_mfid, s.project_mfid))
        order by n.depth, n.type, n.id), '[]'::json)
     from nodes n
     left join dataset d on n.type = 'dataset' and d.unique_id = n.id
     left join sample s on n.type = 'sample' and s.unique_id = n.id) as nodes,
    (select coalesce(json_agg(json_build_object(
        'source', e.from_id, 'target', e.to_id, 'kind', e.kind, 'relationship_type', e.relationship_type)
        order by e.kind, e.from_id, e.to_id), '[]'::json)
     from edge_rows e) as edges,
    (${more}) as more,
    (${cut}) as walk_cut,
    (${found}) as found`;
}
