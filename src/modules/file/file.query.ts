import type { RequestContext } from '../../core/context';
import { countRows, offsetRows, rowsBefore } from '../../core/db/page';
import { rawQuery } from '../../core/db/raw';
import { and, inList, sql, type Sql } from '../../core/db/sql';
import { keysetPage, type KeysetPage } from '../../core/pagination';
import { AssociatedFile } from './file.entity';
import type { FilePolicy } from './file.policy';

/** Filters of the file collection (every file of every dataset the caller may read). */
export interface FileFilter {
  sha256?: string;
  datasetId?: string;
}

/** Files joined to their dataset (aliases `f` and `d`). */
const FILES = 'associated_file f join dataset d on d.unique_id = f.dataset_mfid';

/**
 * The SQL of file collections. Files are joined to their dataset and the caller's dataset
 * visibility condition is always part of the WHERE clause.
 */
export class FileQuery {
  constructor(private readonly policy: FilePolicy) {}

  private async where(ctx: RequestContext, f: FileFilter): Promise<Sql> {
    return and(
      f.sha256 !== undefined ? sql('f.sha256 = ?', f.sha256.toLowerCase()) : null,
      f.datasetId !== undefined ? sql('f.dataset_mfid = ?', f.datasetId) : null,
      await this.policy.visibleWhere(ctx, 'd'),
    );
  }

  async offsetPage(
    ctx: RequestContext,
    f: FileFilter,
    page: { limit: number; offset: number },
  ): Promise<{ items: AssociatedFile[]; total: number }> {
    const where = await this.where(ctx, f);
    return offsetRows(
      ctx.em,
      AssociatedFile,
      { select: 'f.*', from: FILES, where, order: 'f.unique_id desc' },
      page,
    );
  }

  async keyset(
    ctx: RequestContext,
    f: FileFilter,
    page: { limit: number; cursor?: string },
  ): Promise<KeysetPage<AssociatedFile>> {
    const where = await this.where(ctx, f);
    const rows = await rowsBefore(
      ctx.em,
      AssociatedFile,
      { select: 'f.*', from: FILES, where, key: 'f.unique_id' },
      { limit: page.limit, before: page.cursor },
    );
    return keysetPage(rows, page.limit);
  }

  /** The files of these MFIDs on datasets the caller may read, in one statement. */
  async byIds(ctx: RequestContext, ids: readonly string[]): Promise<AssociatedFile[]> {
    const where = and(inList('f.unique_id', ids), await this.policy.visibleWhere(ctx, 'd'));
    const rows = await rawQuery<Record<string, unknown>>(
      ctx.em,
      `select f.* from ${FILES} where ${where.sql}`,
      where.params,
    );
    return rows.map((row) => ctx.em.map(AssociatedFile, row));
  }

  async count(ctx: RequestContext, f: FileFilter): Promise<number> {
    return countRows(ctx.em, FILES, await this.where(ctx, f));
  }
}
