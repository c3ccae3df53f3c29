import type { RequestContext } from '../../core/context';
import { and, sql, type Sql } from '../../core/db/sql';
import {
  boundedCount,
  countTotal,
  exactCount,
  selectProjectedPage,
  type PageDriver,
  type PageRequest,
  type Projection,
  type Total,
  type TotalQuery,
} from '../../core/db/page';
import { rawQuery } from '../../core/db/raw';
import type { JsonRow, JsonRowPage, RawRow } from '../owned-record/owned-record-row';
import { keywordCondition, matchingKeywords, textCondition } from './dataset-conditions';
import type { AccessService } from '../permission/access.service';
import type { AccessSelectors } from '../project/access-selectors';
import { datasetAnchor, datasetPageOrder, type DatasetOrder } from './dataset-order';
import { DATASET_ROWS, type DatasetInclude, type DatasetRow, type ProjectRelation } from './dataset-row';
import {
  keywordTallySource,
  tallyAnswers,
  tallySource,
  totalSource,
  fieldTotalSource,
  type TallySource,
} from './dataset-tally';
import {
  OwnedRecordQuery,
  type ExactColumn,
  type OwnedRecordFilter,
  type OwnedRecordQueryDeps,
} from '../owned-record/owned-record.query';

export type ProjectScope = 'assigned' | 'shared' | 'all';

/**
 * Filters of the dataset collection. All exact-match except `keyword` (substring, any case) and,
 * with `anyCase`, the text fields (docs/web-app.md, "Search that forgives").
 */
export interface DatasetFilter extends OwnedRecordFilter {
  /**
   * the text fields (`datasetName`, `measurement`, `dataType`, `dataFormat`, `sessionName`,
   * `instrumentName`) equal their value ignoring case: GraphQL and the page set it; the REST
   * routes keep their documented exact match
   */
  anyCase?: boolean;
  projectScope?: ProjectScope;
  instrumentMfid?: string;
  /** null (GraphQL's explicit null) is no filter, as for `keyword` and `text` */
  instrumentName?: string | null;
  measurement?: string;
  keyword?: string | null;
  /**
   * carries this whole keyword (in any case, as keywords are one record whatever their case):
   * what a keyword facet counts, so the list of a facet value has as many rows as its count
   * (docs/web-app.md, "Keyword facets")
   */
  keywordExact?: string | null;
  datasetName?: string;
  size?: number;
  dataFormat?: string;
  dataType?: string;
  sessionName?: string;
  /** associated with this sample (which the caller must be able to read) */
  sampleMfid?: string;
  /**
   * full-text query (`websearch_to_tsquery` syntax, English stemming) over the dataset's text
   * fields and its scientific metadata; the order stays newest first
   */
  text?: string | null;
}

/** A page of dataset rows (with `projectRelation` when the filter names a project). */
export interface DatasetPage {
  items: DatasetRow[];
  nextCursor: string | null;
  /** in a sorted page: each item's cursor */
  cursors?: Map<string, string>;
  /** the list's total, when the read asked for it */
  total?: Total;
}

/** What a dataset list reads: the rows' include set, and the total with the page. */
export interface DatasetListInclude extends DatasetInclude {
  total?: boolean;
}

interface Compiled {
  where: Sql;
  /** the project the filter is scoped to, for project_relation */
  projectMfid?: string;
  /** where a newest-first page may start from (a single keyword's links) */
  driver?: PageDriver;
}

/** The text fields: exact, or with `anyCase` equal ignoring case (each has a `lower(column)` index). */
const TEXT: ExactColumn<DatasetFilter>[] = [
  ['datasetName', 'dataset_name'],
  ['measurement', 'measurement'],
  ['dataFormat', 'data_format'],
  ['dataType', 'data_type'],
  ['sessionName', 'session_name'],
];

const EXACT: ExactColumn<DatasetFilter>[] = [
  ['size', 'size'],
  ['instrumentMfid', 'instrument_mfid'],
];

/** `column = value`, or with `anyCase` `lower(column) = lower(value)`. */
function textEquals(column: string, value: unknown, anyCase: boolean | undefined): Sql {
  return anyCase ? sql(`lower(${column}) = lower(?)`, value) : sql(`${column} = ?`, value);
}

/**
 * The SQL of the dataset collection: one statement for a page, one for the total; with a
 * project filter, how each dataset relates to the project.
 */
export class DatasetQuery extends OwnedRecordQuery<DatasetFilter> {
  private readonly access: AccessService;
  private readonly selectors: AccessSelectors;

  constructor(deps: OwnedRecordQueryDeps) {
    super('dataset', 'd', deps);
    this.access = deps.access;
    this.selectors = deps.selectors;
  }

  /** The WHERE clause of `f`; `ordered`: for a page newest first. */
  async compile(ctx: RequestContext, f: DatasetFilter, ordered = false): Promise<Compiled> {
    const parts: (Sql | null)[] = this.exact(f, EXACT);
    for (const [key, column] of TEXT) {
      if (f[key] !== undefined) parts.push(textEquals(`d.${column}`, f[key], f.anyCase));
    }
    let driver: PageDriver | undefined;
    if (f.keyword !== undefined && f.keyword !== null) {
      const keyword = await keywordCondition(ctx, f.keyword);
      parts.push(keyword.condition);
      driver = keyword.driver;
    }
    if (f.keywordExact !== undefined && f.keywordExact !== null) {
      const keyword = await keywordCondition(ctx, f.keywordExact, true);
      parts.push(keyword.condition);
      driver = keyword.driver ?? driver;
    }
    if (f.text !== undefined && f.text !== null) parts.push(textCondition(f.text));
    if (f.instrumentName !== undefined && f.instrumentName !== null) {
      const named = textEquals('instrument_name', f.instrumentName, f.anyCase);
      const legacy = textEquals('d.legacy_instrument_name', f.instrumentName, f.anyCase);
      parts.push({
        sql: `(d.instrument_mfid in (select unique_id from instrument where ${named.sql}) or ${legacy.sql})`,
        params: [...named.params, ...legacy.params],
      });
    }
    let projectMfid: string | undefined;
    if (f.projectId !== undefined || f.projectMfid !== undefined) {
      const project = await this.findProject(ctx, f);
      if (project) {
        projectMfid = project;
        parts.push(this.scopeCondition(project, f.projectScope ?? 'assigned'));
      } else if (f.projectId !== undefined && f.projectMfid === undefined) {
        // a slug no project has: legacy records may still carry it as their display value
        parts.push(sql('d.project_mfid is null and d.legacy_project_id = ?', f.projectId));
      } else {
        parts.push(sql('false'));
      }
    }
    parts.push(...(await this.shared(ctx, f, f.sampleMfid, ordered)));
    return { where: and(...parts), projectMfid, driver };
  }

  /**
   * One page of rows, newest first or in `order` (then `page.cursor` is the cursor as issued),
   * projected for `include` (DATASET_ROWS); with `include.total`, the list's {@link total} comes
   * in the same statement.
   */
  async page(
    ctx: RequestContext,
    f: DatasetFilter,
    page: PageRequest,
    include: DatasetListInclude,
    order?: DatasetOrder,
  ): Promise<DatasetPage> {
    const { where, projectMfid, driver } = await this.compile(ctx, f, !order);
    const anchor =
      order && page.anchor !== undefined
        ? await datasetAnchor(ctx.em, 'd', where, order, page.anchor)
        : undefined;
    const rows = await selectProjectedPage<RawRow>(
      ctx.em,
      'dataset',
      'd',
      where,
      page,
      DATASET_ROWS.projection(include),
      {
        extra: relation(projectMfid),
        order: order ? datasetPageOrder('d', order, page.cursor, anchor) : undefined,
        driver,
        count: include.total ? await this.totalQuery(ctx, f) : undefined,
      },
    );
    const items = rows.rows.map((raw) => {
      const row = DATASET_ROWS.row(raw);
      if (projectMfid) row.projectRelation = raw._extra as ProjectRelation | null;
      return row;
    });
    return { items, nextCursor: rows.nextCursor, cursors: rows.cursors, total: rows.total };
  }

  /**
   * The page {@link page} reads newest first, each row selected by `select(related)` over the
   * projected row `r` (its JSON, say; `related`: the filter names a project, whose relation to
   * each row is `r._extra`) instead of its columns.
   */
  async pageJson(
    ctx: RequestContext,
    f: DatasetFilter,
    page: PageRequest,
    include: DatasetInclude,
    select: (related: boolean) => Projection,
  ): Promise<JsonRowPage> {
    const { where, projectMfid, driver } = await this.compile(ctx, f, true);
    const { rows, nextCursor } = await selectProjectedPage<JsonRow>(
      ctx.em,
      'dataset',
      'd',
      where,
      page,
      DATASET_ROWS.projection(include),
      { extra: relation(projectMfid), driver, select: select(projectMfid !== undefined) },
    );
    return { rows, nextCursor };
  }

  /** Every matching id, newest first (for inspecting what one user may reach); at most `limit`. */
  async ids(ctx: RequestContext, f: DatasetFilter, limit?: number): Promise<string[]> {
    const { where } = await this.compile(ctx, f);
    const rows = await rawQuery<{ unique_id: string }>(
      ctx.em,
      `select d.unique_id from dataset d where ${where.sql} order by d.unique_id desc${limit === undefined ? '' : ' limit ?'}`,
      limit === undefined ? where.params : [...where.params, limit],
    );
    return rows.map((r) => r.unique_id);
  }

  /** The exact total: from the tally when it answers the filter, else a count of the rows. */
  async count(ctx: RequestContext, f: DatasetFilter): Promise<number> {
    return (await countTotal(ctx.em, await this.exactCount(ctx, f))).count;
  }

  /** The statement of the exact total: {@link count}'s. */
  private async exactCount(ctx: RequestContext, f: DatasetFilter): Promise<TotalQuery> {
    const tallied =
      (await this.tallied(ctx, f, true)) ??
      (await this.talliedSelector(ctx, f)) ??
      (await this.talliedKeyword(ctx, f));
    if (tallied) {
      return {
        sql: {
          sql: `select coalesce(sum(x.n), 0)::int as n from (${tallied.sql}) x`,
          params: tallied.params,
        },
        total: (n) => ({ count: n, exact: true }),
      };
    }
    const { where } = await this.compile(ctx, f);
    return exactCount('dataset d', where);
  }

  /**
   * The list total: exact, except for a full-text search or metadata conditions, which are
   * counted up to TOTAL_COUNT_LIMIT and reported as "at least" past it (docs/scale.md): their
   * matches grow with the catalog, the legacy client never sends them, and the page itself is
   * bounded.
   */
  async total(ctx: RequestContext, f: DatasetFilter): Promise<Total> {
    return countTotal(ctx.em, await this.totalQuery(ctx, f));
  }

  /** The statement of {@link total}, to run alone or within a page's statement. */
  async totalQuery(ctx: RequestContext, f: DatasetFilter): Promise<TotalQuery> {
    if ((f.text === undefined || f.text === null) && !f.metadata?.length) return this.exactCount(ctx, f);
    const { where } = await this.compile(ctx, f);
    return boundedCount('dataset d', where, ctx.config.limits.totalCountLimit);
  }

  /**
   * The tally source of `f` (rows of the tally's columns and `n`, docs/scale.md), or null when
   * the filter needs the dataset rows. With `total`, only `n` counts, and a filter with at most
   * one tallied dimension reads `dataset_total` instead.
   */
  async tallied(ctx: RequestContext, f: DatasetFilter, total = false): Promise<TallySource | null> {
    if (!tallyAnswers(f)) return null;
    const project = await this.namedProject(ctx, f);
    // an unknown project: the row query answers (a legacy slug, or nothing)
    if (project === null) return null;
    return (
      (total ? await totalSource(ctx, this.access, f, project) : null) ??
      tallySource(ctx, this.access, f, project)
    );
  }

  /**
   * The groups `(value, n)` of one column over the datasets `f` selects for the caller, from
   * `dataset_total` (one row per value and visibility scope, not per combination or dataset), or
   * null when the filter names a dimension besides `public` or needs the rows (docs/scale.md,
   * "Facet fields and sorted pages").
   */
  async fieldTotals(ctx: RequestContext, f: DatasetFilter, column: string): Promise<Sql | null> {
    if (!tallyAnswers(f)) return null;
    const project = await this.namedProject(ctx, f);
    if (project === null) return null;
    return fieldTotalSource(ctx, this.access, f, project, column);
  }

  /**
   * The tally source of a filter with one `accessible_to_project` selector (and otherwise only
   * tallied keys), for its total; null when the rows must be counted. The selector is resolved
   * (and checked) as the list resolves it.
   */
  private async talliedSelector(ctx: RequestContext, f: DatasetFilter): Promise<TallySource | null> {
    const { accessibleToProject, ...rest } = f;
    if (!accessibleToProject?.length || f.accessibleToUser?.length || !tallyAnswers(rest)) return null;
    const resolved = await this.selectors.resolve(ctx, f);
    const selected = [...new Set(resolved?.projects.map((p) => p.uniqueId))];
    if (selected.length !== 1) return null;
    const project = await this.namedProject(ctx, rest);
    if (project === null) return null;
    return (
      (await totalSource(ctx, this.access, rest, project, selected[0])) ??
      tallySource(ctx, this.access, rest, project, selected[0])
    );
  }

  /**
   * The tally source of a keyword filter alone whose text matches exactly one keyword (the
   * keyword tally counts each keyword apart: a dataset carrying two matching keywords would be
   * counted twice); null otherwise.
   */
  private async talliedKeyword(ctx: RequestContext, f: DatasetFilter): Promise<TallySource | null> {
    const set = (v: string | null | undefined): v is string => v !== undefined && v !== null;
    // one of the two keyword filters, alone
    const [key, exact] = set(f.keyword) ? (['keyword', false] as const) : (['keywordExact', true] as const);
    const text = f[key];
    if (!set(text)) return null;
    const alone = Object.entries(f).every(
      ([k, value]) =>
        k === key ||
        k === 'anyCase' ||
        value === undefined ||
        value === null ||
        (Array.isArray(value) && value.length === 0),
    );
    if (!alone) return null;
    const ids = await matchingKeywords(ctx, text, exact);
    return ids.length === 1 ? keywordTallySource(ctx, this.access, ids[0]) : null;
  }

  /** The project the filter names: undefined when none, null when no project matches. */
  private async namedProject(ctx: RequestContext, f: DatasetFilter): Promise<string | null | undefined> {
    return f.projectId === undefined && f.projectMfid === undefined ? undefined : this.findProject(ctx, f);
  }

  private async findProject(ctx: RequestContext, f: DatasetFilter): Promise<string | null> {
    const slug = f.projectId;
    const mfid = f.projectMfid;
    const bySlug = slug !== undefined ? await this.projects.find(ctx.em, slug) : null;
    if (slug !== undefined && mfid !== undefined) {
      // both selectors must agree (spec 4.2 list rule 1)
      await this.projects.resolveSelectors(ctx.em, slug, mfid);
    }
    if (mfid !== undefined) return (await this.projects.find(ctx.em, mfid))?.uniqueId ?? null;
    return bySlug?.uniqueId ?? null;
  }

  /** assigned: in the project; shared: shared with it but assigned elsewhere or nowhere. */
  private scopeCondition(projectMfid: string, scope: ProjectScope): Sql {
    const assigned = sql('d.project_mfid = ?', projectMfid);
    const shared = sql(
      `d.project_mfid is distinct from ? and exists (select 1 from access_grant g
       where g.resource_id = d.unique_id and g.principal_type = 'project' and g.principal_id = ?)`,
      projectMfid,
      projectMfid,
    );
    if (scope === 'assigned') return assigned;
    if (scope === 'shared') return shared;
    return { sql: `(${assigned.sql}) or (${shared.sql})`, params: [...assigned.params, ...shared.params] };
  }
}

/** How a dataset relates to the project the filter names (none: null). */
function relation(projectMfid: string | undefined): Sql {
  return projectMfid
    ? sql(`case when d.project_mfid = ? then 'assigned' else 'shared' end`, projectMfid)
    : sql('null');
}
