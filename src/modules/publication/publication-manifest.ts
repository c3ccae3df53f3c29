import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { AppError, validationError } from '../../core/errors';
import type { ManifestDataset } from './publication.entity';
import type { DatasetService } from '../dataset/dataset.service';
import type { FileService } from '../file/file.service';

/** The most files a publication's manifest may hold (docs/publications.md). */
export const MAX_MANIFEST_FILES = 100_000;

/**
 * The file manifest a publication freezes: every file of every dataset with its name, size and
 * SHA-256, and the dataset's name (422 naming the files without a SHA-256: remote ones).
 */
export async function manifestIn(
  deps: { files: FileService; datasets: DatasetService },
  ctx: RequestContext,
  tx: EntityManager,
  datasetIds: readonly string[],
): Promise<ManifestDataset[]> {
  const rows = await deps.files.filesOfIn(tx, datasetIds, MAX_MANIFEST_FILES + 1);
  if (rows.length > MAX_MANIFEST_FILES)
    throw validationError('dataset_ids', `the datasets hold more than ${MAX_MANIFEST_FILES} files together`);
  const unhashed = rows.filter((f) => !f.sha256 || f.size === null);
  if (unhashed.length)
    throw new AppError(
      'VALIDATION',
      `File ${unhashed[0].name} (${unhashed[0].fileId}) of dataset ${unhashed[0].datasetId} has no SHA-256: ` +
        'a published manifest names every file with its size and SHA-256 (remote files are not fetched: remove or upload it)',
      unhashed.slice(0, 20).map((f) => ({ field: `files.${f.fileId}`, message: `${f.name}: no SHA-256` })),
    );
  const names = new Map(
    (await deps.datasets.readable(ctx.within(tx), datasetIds)).map((d) => [d.uniqueId, d.datasetName]),
  );
  const files = new Map<string, ManifestDataset['files']>(datasetIds.map((d) => [d, []]));
  for (const f of rows)
    files
      .get(f.datasetId)
      ?.push({ fileId: f.fileId, name: f.name, size: f.size ?? 0, sha256: f.sha256 ?? '' });
  return datasetIds.map((datasetId) => ({
    datasetId,
    name: names.get(datasetId) ?? null,
    files: files.get(datasetId) ?? [],
  }));
}
