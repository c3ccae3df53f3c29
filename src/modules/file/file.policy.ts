import type { RequestContext } from '../../core/context';
import { forbidden } from '../../core/errors';
import type { Sql } from '../../core/db/sql';
import { allows } from '../permission/permission';
import type { Dataset } from '../dataset/dataset.entity';
import type { DatasetPolicy } from '../dataset/dataset.policy';
import type { AssociatedFile } from './file.entity';

/**
 * Files take their access from their dataset: readable with it, added by contributors, deleted
 * by editors. A contributor may also change (not delete) the files they added themselves, so a
 * remote file can be catalogued and then given its location.
 */
export class FilePolicy {
  constructor(readonly datasets: DatasetPolicy) {}

  /** The condition on `dataset <alias>` keeping the files the caller may read (null: all). */
  visibleWhere(ctx: RequestContext, datasetAlias = 'd'): Promise<Sql | null> {
    return this.datasets.visibleWhere(ctx, datasetAlias);
  }

  async assertCanAdd(ctx: RequestContext, ds: Dataset): Promise<void> {
    await this.datasets.assertCan(ctx, 'contribute', ds);
  }

  async assertCanChange(ctx: RequestContext, ds: Dataset, file: AssociatedFile): Promise<void> {
    const p = await this.datasets.assertCan(ctx, 'read', ds);
    if (allows(p, 'update') || (allows(p, 'contribute') && file.creatorId === ctx.userId)) return;
    throw forbidden(
      `You may not change file ${file.uniqueId}: editors may, and contributors for files they added`,
    );
  }

  async assertCanDelete(ctx: RequestContext, ds: Dataset): Promise<void> {
    await this.datasets.assertCan(ctx, 'update', ds);
  }
}
