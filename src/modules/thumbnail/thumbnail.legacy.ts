import { NullableString, Type } from '../../core/rest/schema';
import type { Thumbnail } from './thumbnail.entity';

/** The thumbnail record of spec 2.4 (create, list and update responses). */
export function toLegacyThumbnail(t: Thumbnail): Record<string, unknown> {
  return {
    id: t.id,
    dataset_id: t.dataset.uniqueId,
    thumbnail_name: t.thumbnailName,
    thumbnail_b64str: t.data.toString('base64'),
    mime_type: t.mimeType,
  };
}

export const THUMBNAIL = Type.Object(
  {
    id: Type.Integer(),
    dataset_id: Type.String(),
    thumbnail_name: NullableString(),
    thumbnail_b64str: Type.String({ contentEncoding: 'base64' }),
    mime_type: Type.String(),
  },
  { title: 'Thumbnail' },
);
