import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';

/** The first thumbnail of a dataset, as graph nodes and galleries show it. */
export interface ThumbnailPreview {
  id: number;
  thumbnailName: string | null;
  mimeType: string;
  /** the image, base64-encoded */
  thumbnailB64str: string;
}

/**
 * Finds the first thumbnail of each of many datasets, in one query per batch. The thumbnail
 * module provides the implementation; until it is wired in, datasets have none.
 */
export type FirstThumbnailSource = (
  em: EntityManager,
  datasetIds: readonly string[],
) => Promise<Map<string, ThumbnailPreview>>;

export const noThumbnails: FirstThumbnailSource = () => Promise.resolve(new Map<string, ThumbnailPreview>());

export function firstThumbnailLoader(em: EntityManager, source: FirstThumbnailSource = noThumbnails) {
  return new DataLoader<string, ThumbnailPreview | null>(async (ids) => {
    const found = await source(em, ids);
    return ids.map((id) => found.get(id) ?? null);
  });
}
