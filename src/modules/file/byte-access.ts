import type { RequestContext } from '../../core/context';
import { AppError } from '../../core/errors';
import type { DatasetService } from '../dataset/dataset.service';
import type { EmbargoGate } from '../access/embargo';

/**
 * THE check of every route that hands out a dataset's bytes: the file download
 * (`GET /files/{id}/download`, and the signed link's issue), a file's preview
 * (`GET /files/{id}/preview`, `filePreview`, `GET /files/{id}/preview/image`) and a thumbnail's
 * image (`GET /thumbnails/{id}/image`): the caller may read the dataset, and its bytes are not
 * under embargo for them (the embargo's gate, access/embargo.ts: docs/access-control.md).
 *
 * Resolves when the caller may read the bytes; rejects with `denied()` when they may not read
 * the dataset (the routes make it the same NOT_FOUND as a missing record), and with the gate's
 * 403 naming the date while the bytes are under embargo for them.
 */
export async function assertMayReadBytes(
  deps: { datasets: Pick<DatasetService, 'get'>; embargo: Pick<EmbargoGate, 'assertBytesReadable'> },
  ctx: RequestContext,
  datasetId: string,
  denied: () => AppError,
): Promise<void> {
  try {
    await deps.datasets.get(ctx, datasetId);
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw denied();
    throw err;
  }
  await deps.embargo.assertBytesReadable(ctx, datasetId);
}
