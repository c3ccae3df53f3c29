import type { RequestContext } from '../../core/context';
import { and, sql, type Sql } from '../../core/db/sql';
import {
  boundedCount,
  countRows,
  countTotal,
  exactCount,
  selectProjectedPage,
  type PageRequest,
  type Projection,
  type Total,
  type TotalQuery,
} from '../../core/db/page';
import {
  OwnedRecordQuery,
  type ExactColumn,
  type OwnedRecordFilter,
  type OwnedRecordQueryDeps,
} from '../owned-record/owned-record.query';
import type { JsonRow, JsonRowPage, RawRow } from '../owned-record/owned-record-row';
import { SAMPLE_ROWS, type SampleInclude, type SampleRow } from './sample-row';
import { sampleCountTotal } from './sample-total';
import type { AccessService } from '../permission/access.service';
import { columnAnchor, columnPageOrder, type ColumnOrder, type SortColumn } from '../../core/db/column-order';

/** The columns a sample list can be sorted by. */
export type SampleOrderField = 'creationTime' | 'modificationTime' | 'sampleName';
/** The order of a sample list: one column, then the MFID (keyset under the sort, `columnPageOrder`). */
export type SampleOrder = ColumnOrder<SampleOrderField>;

const ORDER_COLUMNS: Record<SampleOrderField, SortColumn> = {
  creationTime: { column: 'creation_time', type: 'timestamptz', notNull: true },
  modificationTime: { column: 'modification_time', type: 'timestamptz', notNull: true },
  sampleName: { column: 'sample_name', type: 'text' },
};

/** Filters of the sample collection; exact match. */
export interface SampleFilter extends OwnedRecordFilter {
  sampleName?: string;
  sampleType?: string;
  /** associated with this dataset (which the caller must be able to read) */
  datasetMfid?: string;
  description?: string;
  /** with a project: assigned to it (default), shared with it by a grant, or both */
  projectScope?: 'assigned' | 'shared' | 'all';
}

const EXACT: ExactColumn<SampleFilter>[] = [
  ['sampleName', 'sample_name'],
  ['sampleType', 'sample_type'],
  ['description', 'description'],
];

/** A page of sample rows. */
export interface SamplePage {
  items: SampleRow[];
  nextCursor: string | null;
}

/** The SQL of the sample collection: one statement for a page, one for the total. */
export class SampleQuery extends OwnedRecordQuery<SampleFilter> {
  private readonly access: AccessService;

  constructor(deps: OwnedRecordQueryDeps) {
    super('sample', 's', deps);
    this.access = deps.access;
  }

  /** The WHERE clause of `f`; `ordered`: for a page newest first. */
  async compile(ctx: RequestContext, f: SampleFilter, ordered = false): Promise<Sql> {
    const parts: (Sql | null)[] = this.exact(f, EXACT);
    if (f.projectId !== undefined || f.projectMfid !== undefined) {
      const project = (await this.findProject(ctx, f)) ?? '';
      const assigned = sql('s.project_mfid = ?', project);
      const shared = sql(
        `s.project_mfid is distinct from ? and exists (select 1 from access_grant g
         where g.resource_id = s.unique_id and g.principal_type = 'project' and g.principal_id = ?)`,
        project,
        project,
      );
      const scope = f.projectScope ?? 'assigned';
      parts.push(
        scope === 'assigned'
          ? assigned
          : scope === 'shared'
            ? shared
            : {
                sql: `((${assigned.sql}) or (${shared.sql}))`,
                params: [...assigned.params, ...shared.params],
              },
      );
    }
    parts.push(...(await this.shared(ctx, f, f.datasetMfid, ordered)));
    return and(...parts);
  }

  /**
   * One page of rows, newest first or in `order` (then `page.cursor` is the cursor as issued),
   * projected for `include` (SAMPLE_ROWS).
   */
  async page(
    ctx: RequestContext,
    f: SampleFilter,
    page: PageRequest,
    include: SampleInclude,
    order?: SampleOrder,
  ): Promise<SamplePage> {
    const where = await this.compile(ctx, f, !order);
    const anchor =
      order && page.anchor !== undefined
        ? await columnAnchor(ctx.em, 'sample', 's', where, ORDER_COLUMNS, order, page.anchor)
        : undefined;
    const rows = await selectProjectedPage<RawRow>(
      ctx.em,
      'sample',
      's',
      where,
      page,
      SAMPLE_ROWS.projection(include),
      { order: order ? columnPageOrder('s', ORDER_COLUMNS, order, page.cursor, anchor) : undefined },
    );
    return { items: rows.rows.map((raw) => SAMPLE_ROWS.row(raw)), nextCursor: rows.nextCursor };
  }

  /** The page {@link page} reads, each row selected by `select` over the projected row `r`. */
  async pageJson(
    ctx: RequestContext,
    f: SampleFilter,
    page: PageRequest,
    include: SampleInclude,
    select: Projection,
  ): Promise<JsonRowPage> {
    const where = await this.compile(ctx, f, true);
    const projection = SAMPLE_ROWS.projection(include);
    const { rows, nextCursor } = await selectProjectedPage<JsonRow>(
      ctx.em,
      'sample',
      's',
      where,
      page,
      projection,
      {
        select,
      },
    );
    return { rows, nextCursor };
  }

  async count(ctx: RequestContext, f: SampleFilter): Promise<number> {
    return countRows(ctx.em, 'sample s', await this.compile(ctx, f));
  }

  /** The list total: exact, except for metadata conditions past TOTAL_COUNT_LIMIT (docs/scale.md). */
  async total(ctx: RequestContext, f: SampleFilter): Promise<Total> {
    return countTotal(ctx.em, await this.totalQuery(ctx, f));
  }

  /** The statement of {@link total}. */
  private async totalQuery(ctx: RequestContext, f: SampleFilter): Promise<TotalQuery> {
    // no filter but `public`: the totals table answers (docs/scale.md, "Facet fields and sorted pages")
    const counted = await sampleCountTotal(ctx, this.access, f);
    if (counted) return { sql: counted, total: (n) => ({ count: n, exact: true }) };
    const where = await this.compile(ctx, f);
    return f.metadata?.length
      ? boundedCount('sample s', where, ctx.config.limits.totalCountLimit)
      : exactCount('sample s', where);
  }

  /** The project MFID the filter names (both selectors must agree), or null for none. */
  private async findProject(ctx: RequestContext, f: SampleFilter): Promise<string | null> {
    if (f.projectId !== undefined && f.projectMfid !== undefined) {
      return (await this.projects.resolveSelectors(ctx.em, f.projectId, f.projectMfid))?.uniqueId ?? null;
    }
    const named = f.projectMfid ?? f.projectId;
    if (named === undefined) return null;
    const project = await this.projects.find(ctx.em, named);
    return project?.uniqueId ?? null;
  }
}
