import { NullableString, Type } from '../../core/rest/schema';
import type { LinkRow } from './link.loaders';
import { RELATIONSHIP_ALIAS } from './relationship';
import type { LinkInfo } from './link.service';

/** A link object (spec 2.5), seen from the resource whose links are listed. */
export function toLegacyLink(row: LinkRow): Record<string, unknown> {
  return {
    unique_id: row.unique_id,
    resource_type: row.resource_type,
    name: row.name,
    direction: row.direction,
    relationship: RELATIONSHIP_ALIAS[row.direction],
    relationship_type: row.relationship_type,
  };
}

/** What a link or unlink call returns. Associations are reported dataset and sample. */
export function toLegacyLinkInfo(info: LinkInfo): Record<string, unknown> {
  if (info.kind === 'sample_dataset') {
    return {
      kind: info.kind,
      dataset_mfid: info.childId,
      sample_mfid: info.parentId,
      relationship_type: null,
    };
  }
  return {
    kind: info.kind,
    parent_mfid: info.parentId,
    child_mfid: info.childId,
    parent_type: info.parentType,
    child_type: info.childType,
    relationship_type: info.relationshipType,
  };
}

const nullable = NullableString();
/** A link object (spec 2.5). */
export const LINK = Type.Object(
  {
    unique_id: Type.String(),
    resource_type: Type.String(),
    name: nullable,
    direction: Type.String(),
    relationship: Type.String(),
    relationship_type: nullable,
  },
  { title: 'Link' },
);
/** What a link or unlink call returns. */
export const LINK_INFO = Type.Object(
  {
    kind: Type.String(),
    parent_mfid: Type.Optional(Type.String()),
    child_mfid: Type.Optional(Type.String()),
    parent_type: Type.Optional(Type.String()),
    child_type: Type.Optional(Type.String()),
    dataset_mfid: Type.Optional(Type.String()),
    sample_mfid: Type.Optional(Type.String()),
    relationship_type: nullable,
  },
  { title: 'LinkInfo' },
);
