import type { RequestContext } from '../../core/context';
import { rawQuery, runSql } from '../../core/db/raw';
import { offsetRows } from '../../core/db/page';
import { and, sql, type Sql } from '../../core/db/sql';
import { keysetPage, type KeysetPage } from '../../core/pagination';
import { AssociatedFile } from './file.entity';
import type { FilePolicy } from './file.policy';

/** Filters of the file collection (every file of every dataset the caller may read). */
export interface FileFilter {
  sha256?: string;
  datasetId?: string;
}

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
    const from = {
      sql: `from associated_file f join dataset d on d.unique_id = f.dataset_mfid where ${where.sql}`,
      params: where.params,
    };
    return offsetRows(ctx.em, AssociatedFile, { select: 'f.*', from, order: 'f.unique_id desc' }, page);
  }

  async keyset(
    ctx: RequestContext,
    f: FileFilter,
    page: { limit: number; cursor?: string },
  ): Promise<KeysetPage<AssociatedFile>> {
    const where = and(await this.where(ctx, f), page.cursor ? sql('f.unique_id < ?', page.cursor) : null);
    const rows = await rawQuery<Record<string, unknown>>(
      ctx.em,
      `select f.* from associated_file f join dataset d on d.unique_id = f.dataset_mfid
       where ${where.sql} order by f.unique_id desc limit ?`,
      [...where.params, page.limit + 1],
    );
    return keysetPage(
      rows.map((r) => ctx.em.map(AssociatedFile, r)),
      page.limit,
    );
  }

  async count(ctx: RequestContext, f: FileFilter): Promise<number> {
    const where = await this.where(ctx, f);
    const rows = await runSql<{ n: number }>(ctx.em, {
      sql: `select count(*)::int as n from associated_file f join dataset d on d.unique_id = f.dataset_mfid where ${where.sql}`,
      params: where.params,
    });
    return rows[0].n;
  }
}
