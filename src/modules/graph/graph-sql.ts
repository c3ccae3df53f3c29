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

/**
 * Given a CTE `nodes(id, type, depth)` (already cut to the node cap) and a boolean SQL
 * expression `cut` (whether nodes were left out), one row with the nodes and their display
 * fields, the edges whose two ends are both nodes (at most `?` of them: the one parameter, to
 * be passed after the CTEs' own), and `truncated`: `cut`, or more edges than the cap.
 */
export function nodesAndEdges(cut: string): string {
  return `
  , edge_rows as (
     select e.* from nodes p
     join (${EDGES}) e on e.from_id = p.id and e.from_type = p.type
     join nodes c on c.id = e.to_id and c.type = e.to_type
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
    (${cut}) as truncated`;
}
