import type { RequestContext } from '../../core/context';
import { forbidden } from '../../core/errors';
import type { Sql } from '../../core/db/sql';
import type { Dataset } from '../dataset/dataset.entity';
import type { FilePolicy } from '../file/file.policy';

/**
 * Ingestion requests take their access from their file's dataset: readable with it (404
 * otherwise); asking for an ingestion needs `contribute` there, as adding the file does.
 * Reporting a worker's progress is for platform administrators and service accounts (the
 * ingestion workers), on requests they may read.
 */
export class IngestionPolicy {
  constructor(private readonly files: FilePolicy) {}

  /** The condition on `dataset <alias>` keeping the requests the caller may read (null: all). */
  visibleWhere(ctx: RequestContext, datasetAlias = 'd'): Promise<Sql | null> {
    return this.files.visibleWhere(ctx, datasetAlias);
  }

  async assertMayRequest(ctx: RequestContext, ds: Dataset): Promise<void> {
    await this.files.assertCanAdd(ctx, ds);
  }

  assertMayReport(ctx: RequestContext): void {
    if (ctx.isPlatformAdmin || ctx.caller.user.isServiceAccount) return;
    throw forbidden(
      'Only platform admins and service accounts (ingestion workers) may update ingestion requests',
    );
  }
}
