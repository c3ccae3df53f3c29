import { NullableString, Type } from '../../core/rest/schema';
import type { MetadataRecord } from './metadata.service';
import type { MetadataHit } from './metadata-search';

/** `{unique_id, scientific_metadata}`, or JSON null when the resource has no metadata. */
export const toLegacyMetadata = (r: MetadataRecord) =>
  r.data === null ? null : { unique_id: r.uniqueId, scientific_metadata: r.data };

/** A hit of the metadata search, with its document. */
export const toLegacyHit = (h: MetadataHit) => ({
  unique_id: h.uniqueId,
  resource_type: h.resourceType,
  name: h.name,
  owner_orcid: h.ownerOrcid,
  creation_time: h.creationTime.toISOString(),
  modification_time: h.modificationTime.toISOString(),
  rank: h.rank,
  scientific_metadata: h.scientificMetadata,
});

export const METADATA = Type.Union(
  [Type.Object({ unique_id: Type.String(), scientific_metadata: Type.Object({}) }), Type.Null()],
  { title: 'Metadata', description: 'null when the resource has no metadata' },
);
export const METADATA_HIT = Type.Object(
  {
    unique_id: Type.String(),
    resource_type: Type.String(),
    name: NullableString(),
    owner_orcid: NullableString(),
    creation_time: Type.String({ format: 'date-time' }),
    modification_time: Type.String({ format: 'date-time' }),
    rank: Type.Number(),
    scientific_metadata: Type.Union([Type.Object({}), Type.Null()]),
  },
  { title: 'MetadataHit' },
);
