/** Typed relationships of a parent/child link, read child relative to parent (spec 2.5). */
export const RELATIONSHIP_TYPES = ['is_derived_from', 'is_part_of'] as const;
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number];

export function isRelationshipType(value: unknown): value is RelationshipType {
  return typeof value === 'string' && (RELATIONSHIP_TYPES as readonly string[]).includes(value);
}

/** The three kinds of edge between datasets and samples; the source is the parent. */
export type EdgeKind = 'dataset_dataset' | 'sample_sample' | 'sample_dataset';

/** The legacy `relationship` alias of a link's direction, seen from the resource listing it. */
export const RELATIONSHIP_ALIAS = { source: 'parent', target: 'child', undirected: 'associated' } as const;
