import type { RequestContext } from '../../core/context';
import { and, sql, type Sql } from '../../core/db/sql';
import type { AccessService } from '../permission/access.service';
import { visibleTotals } from '../permission/visible-totals';

/**
 * The rows facets and totals are computed from: `(public, owner_id, project_mfid,
 * instrument_mfid, measurement, data_type, n)` where `n` is how many datasets of the result set
 * carry that combination. `total = sum(n)`.
 */
export type TallySource = Sql;

/** The filter keys the tally answers; any other key (when set) needs the dataset rows. */
const TALLIED: ReadonlySet<string> = new Set([
  'public',
  'ownerOrcid',
  'projectId',
  'projectMfid',
  'projectScope',
  'instrumentMfid',
  'measurement',
  'dataType',
  'anyCase',
]);

/** the records granted to a project (`accessible_to_project`) */
const GRANTED_TO = `select sg.resource_id from access_grant sg where sg.principal_type = 'project' and sg.principal_id = ?`;

const COLUMNS = 'd.public, d.owner_id, d.project_mfid, d.instrument_mfid, d.measurement, d.data_type';

/**
 * What the tallies read of a dataset list's filter (`DatasetFilter` in dataset.query.ts, which
 * compiles the filter and asks the tallies: declared here so the two do not import each other).
 * Any other key a filter sets makes {@link tallyAnswers} false.
 */
export interface TallyFilter {
  projectScope?: string;
  public?: boolean;
  ownerOrcid?: string;
  instrumentMfid?: string;
  measurement?: string;
  dataType?: string;
  /** measurement and data type equal ignoring case (`DatasetFilter.anyCase`) */
  anyCase?: boolean;
}

/** Whether only tallied keys are set (an assigned-project scope at most). */
export function tallyAnswers(f: TallyFilter): boolean {
  if (f.projectScope !== undefined && f.projectScope !== 'assigned') return false;
  return Object.entries(f).every(
    ([key, value]) =>
      TALLIED.has(key) ||
      value === undefined ||
      value === null ||
      (Array.isArray(value) && value.length === 0),
  );
}

/** The source rows of a filter that needs the dataset rows: one per dataset, `n = 1`. */
export function scanSource(where: Sql, columns = COLUMNS): TallySource {
  return { sql: `select ${columns}, 1 as n from dataset d where ${where.sql}`, params: where.params };
}

/**
 * The source rows of a tallied filter (`projectMfid`: the resolved project, when the filter names
 * one; `selected`: the project of an `accessible_to_project` selector, for a total): the tally
 * rows the caller may read without grants, plus the datasets only a grant lets them read (found
 * from the grants that reach them), plus, with a selector, the readable datasets granted to the
 * selected project and assigned elsewhere (found from its grants), minus the readable datasets a
 * deletion request hides (found from the pending and approved requests). Exact, and independent
 * of the catalog's size.
 */
export async function tallySource(
  ctx: RequestContext,
  access: AccessService,
  f: TallyFilter,
  projectMfid: string | undefined,
  selected?: string,
): Promise<TallySource> {
  const filters = (alias: string): Sql =>
    and(
      f.public !== undefined ? sql(`${alias}.public = ?`, f.public) : null,
      f.ownerOrcid !== undefined ? sql(`${alias}.owner_id = ?`, f.ownerOrcid) : null,
      projectMfid !== undefined ? sql(`${alias}.project_mfid = ?`, projectMfid) : null,
      f.instrumentMfid !== undefined ? sql(`${alias}.instrument_mfid = ?`, f.instrumentMfid) : null,
      f.measurement !== undefined ? textEquals(`${alias}.measurement`, f.measurement, f.anyCase) : null,
      f.dataType !== undefined ? textEquals(`${alias}.data_type`, f.dataType, f.anyCase) : null,
    );
  // with a selector: parts 1 and 2 count the datasets assigned to the selected project
  const assigned = selected !== undefined ? sql('d.project_mfid = ?', selected) : null;
  const parts: Sql[] = [];
  const direct = and(
    await access.readableCondition(ctx, 'dataset', 'd', { grants: false }),
    filters('d'),
    assigned,
  );
  parts.push(
    sql(`select ${COLUMNS}, d.n from dataset_tally d where d.n <> 0 and ${direct.sql}`, ...direct.params),
  );
  parts.push(...(await indirectParts(ctx, access, filters, selected)));
  return unionAll(parts);
}

/**
 * The tally rows besides those of the datasets the caller reads without grants: the datasets only
 * a grant lets them read, with a selector the readable datasets granted to the selected project
 * and assigned elsewhere, and (`n = -1`) the readable datasets a deletion request hides. Each
 * found from the grants and requests, not from the catalog.
 */
async function indirectParts(
  ctx: RequestContext,
  access: AccessService,
  filters: (alias: string) => Sql,
  selected: string | undefined,
  columns = COLUMNS,
): Promise<Sql[]> {
  const assigned = selected !== undefined ? sql('d.project_mfid = ?', selected) : null;
  const parts: Sql[] = [];
  if (!(await access.readableTerms(ctx)).everything) {
    const grants = access.grantPrincipals(await ctx.scope(), 'g');
    const notDirect = await access.readableCondition(ctx, 'dataset', 'd', { grants: false });
    const only = and(
      sql(
        `d.unique_id in (select g.resource_id from access_grant g where g.resource_type = 'dataset' and (${grants.sql}))`,
        ...grants.params,
      ),
      notDirect ? sql(`not coalesce((${notDirect.sql}), false)`, ...notDirect.params) : sql('false'),
      filters('d'),
      assigned,
    );
    parts.push(scanSource(only, columns));
  }
  if (selected !== undefined) {
    const granted = and(
      sql(`d.unique_id in (${GRANTED_TO})`, selected),
      sql('d.project_mfid is distinct from ?', selected),
      await access.readableCondition(ctx, 'dataset', 'd'),
      filters('d'),
    );
    parts.push(scanSource(granted, columns));
  }
  const hidden = and(
    sql(
      `d.unique_id in (select dr.resource_id from deletion_request dr where dr.status in ('pending', 'approved'))`,
    ),
    await access.readableCondition(ctx, 'dataset', 'd'),
    filters('d'),
    selected !== undefined
      ? sql(`(d.project_mfid = ? or d.unique_id in (${GRANTED_TO}))`, selected, selected)
      : null,
  );
  parts.push({ sql: `select ${columns}, -1 as n from dataset d where ${hidden.sql}`, params: hidden.params });
  return parts;
}

/** The filter keys `dataset_total` counts by, its name for each, and the dataset's column. */
const TOTAL_DIMENSIONS = [
  ['ownerOrcid', 'owner', 'owner_id'],
  ['instrumentMfid', 'instrument', 'instrument_mfid'],
  ['measurement', 'measurement', 'measurement'],
  ['dataType', 'data_type', 'data_type'],
] as const;

/**
 * The rows (`n`) whose sum is the exact total of a filter with at most one tallied dimension
 * (owner, project, instrument, measurement or data type) besides `public`, from `dataset_total`
 * (docs/scale.md, "Totals in constant time"): for a platform admin the eight A rows of the
 * value; for anyone else the eight P rows, the V rows of their own datasets and those of their
 * projects' members (index lookups bounded by their projects and the projects' owners, not by
 * the catalog), plus the indirect rows of `tallySource`. With `selected` (the project of an
 * `accessible_to_project` selector) the rows counted directly are that project's, and the
 * indirect rows add what is granted to it. Null when the filter needs the dataset tally or the
 * rows.
 */
export async function totalSource(
  ctx: RequestContext,
  access: AccessService,
  f: TallyFilter,
  projectMfid: string | undefined,
  selected?: string,
): Promise<TallySource | null> {
  if (!tallyAnswers(f)) return null;
  // dataset_total holds exact values: a text value in any case is summed from the tally
  if (f.anyCase && (f.measurement !== undefined || f.dataType !== undefined)) return null;
  const set: [string, string, string][] = [];
  for (const [key, dim, column] of TOTAL_DIMENSIONS) {
    const value = f[key];
    if (typeof value === 'string') set.push([dim, column, value]);
  }
  if (projectMfid !== undefined) set.push(['project', 'project_mfid', projectMfid]);
  // with a selector, the rows counted directly are those assigned to the selected project
  const keyed: [string, string, string][] =
    selected !== undefined && projectMfid !== selected ? [...set, ['project', '', selected]] : set;
  if (keyed.length > 1) return null;
  const key =
    keyed.length === 0
      ? sql(`t.dim = 'all' and t.value is null`)
      : sql('t.dim = ? and t.value = ?', keyed[0][0], keyed[0][2]);
  const parts = await visibleTotals(ctx, access, f.public, (cond, sign) =>
    sql(
      `select ${sign}t.n as n from dataset_total t where ${key.sql} and ${cond.sql}`,
      ...key.params,
      ...cond.params,
    ),
  );
  const filters = (alias: string): Sql =>
    and(
      f.public !== undefined ? sql(`${alias}.public = ?`, f.public) : null,
      ...set.map(([, column, value]) => sql(`${alias}.${column} = ?`, value)),
    );
  parts.push(...(await instrumentParts(ctx, access, filters, selected)).map(amounts));
  parts.push(...(await indirectParts(ctx, access, filters, selected)).map(amounts));
  return unionAll(parts);
}

/** The `dataset_total` dimension of each dataset column a field facet groups by. */
const FIELD_DIMENSIONS: Record<string, string> = {
  owner_id: 'owner',
  project_mfid: 'project',
  instrument_mfid: 'instrument',
  measurement: 'measurement',
  data_type: 'data_type',
  session_name: 'session',
  data_format: 'data_format',
};

/**
 * The groups `(value, n)` of one dataset column over the datasets a filter with no dimension
 * besides `public` selects for the caller, from `dataset_total` (docs/scale.md, "Facet fields and
 * sorted pages"): the rows of the column's dimension the caller reads without grants (index
 * ranges on `(dim, scope, owner_id)` and `(dim, scope, project_mfid)`: as many rows as values
 * of the caller's readable groups, not datasets), plus the datasets reached through a binding
 * or a grant alone and minus those a deletion request hides, each found from the bindings,
 * grants and requests. Null when the filter names another dimension (the table has one per row)
 * or the column has none.
 */
export async function fieldTotalSource(
  ctx: RequestContext,
  access: AccessService,
  f: TallyFilter,
  projectMfid: string | undefined,
  column: string,
): Promise<Sql | null> {
  const dim = FIELD_DIMENSIONS[column] as string | undefined;
  if (dim === undefined || !tallyAnswers(f) || projectMfid !== undefined) return null;
  if (TOTAL_DIMENSIONS.some(([key]) => f[key] !== undefined)) return null;
  const parts = await visibleTotals(ctx, access, f.public, (cond, sign) =>
    sql(
      `select t.value, ${sign}t.n as n from dataset_total t where t.dim = ? and ${cond.sql}`,
      dim,
      ...cond.params,
    ),
  );
  const filters = (alias: string): Sql =>
    and(f.public !== undefined ? sql(`${alias}.public = ?`, f.public) : null);
  const columns = `d.${column}::varchar as value`;
  parts.push(...(await instrumentParts(ctx, access, filters, undefined, columns)));
  parts.push(...(await indirectParts(ctx, access, filters, undefined, columns)));
  const all = unionAll(parts);
  return {
    sql: `select u.value, sum(u.n) as n from (${all.sql}) u where u.value is not null group by 1 having sum(u.n) > 0`,
    params: all.params,
  };
}

/**
 * The rows (`n`) whose sum is the exact number of datasets carrying keyword `keywordId` the
 * caller may read (docs/scale.md, "The keyword filter"): the keyword's tally rows they read
 * without grants (the public row, their own private rows, their projects' private rows — three
 * index lookups, not a scan of the keyword's rows), plus the indirect rows of `tallySource` for
 * the datasets carrying it. A platform admin reads every dataset: the keyword's links are counted
 * on the (keyword, dataset) index.
 */
export async function keywordTallySource(
  ctx: RequestContext,
  access: AccessService,
  keywordId: number,
): Promise<TallySource> {
  const terms = await access.readableTerms(ctx);
  const carries = sql(
    'exists (select 1 from dataset_keyword dk where dk.dataset_mfid = d.unique_id and dk.keyword_id = ?)',
    keywordId,
  );
  const parts: Sql[] = [];
  // the visibility rule's terms (access.service.ts) as rows of the keyword's tally
  if (terms.everything) {
    parts.push(sql('select count(*) as n from dataset_keyword dk where dk.keyword_id = ?', keywordId));
  } else {
    const projects = terms.projects;
    parts.push(sql('select t.n from keyword_tally t where t.keyword_id = ? and t.public', keywordId));
    parts.push(
      sql(
        'select t.n from keyword_tally t where t.keyword_id = ? and not t.public and t.owner_id = ?',
        keywordId,
        terms.ownerId,
      ),
    );
    if (projects.length > 0) {
      parts.push(
        sql(
          `select t.n from keyword_tally t where t.keyword_id = ? and not t.public and t.owner_id <> ?
           and t.project_mfid in (?)`,
          keywordId,
          terms.ownerId,
          projects,
        ),
      );
    }
  }
  parts.push(...(await instrumentParts(ctx, access, () => carries, undefined)).map(amounts));
  parts.push(...(await indirectParts(ctx, access, () => carries, undefined)).map(amounts));
  return unionAll(parts);
}

/**
 * For a service account bound to instruments (`ReadableTerms.instruments`), the datasets of
 * those instruments it reads through the binding alone (not public, not its own, not its
 * projects'), as `n` rows: the totals and keyword tallies count public, own and project rows
 * directly, and their indirect rows leave out what a binding reaches. Found on the datasets'
 * (instrument, unique_id) index, so bounded by the instruments' datasets; nothing for anyone
 * else. The dataset tally has the instrument column, so `tallySource` counts them directly.
 */
async function instrumentParts(
  ctx: RequestContext,
  access: AccessService,
  filters: (alias: string) => Sql,
  selected: string | undefined,
  columns = COLUMNS,
): Promise<Sql[]> {
  const terms = await access.readableTerms(ctx);
  if (terms.everything || terms.instruments.length === 0) return [];
  const direct = await access.readableCondition(ctx, 'dataset', 'd', { grants: false, instruments: false });
  const only = and(
    sql('d.instrument_mfid in (?)', terms.instruments),
    direct ? sql(`not coalesce((${direct.sql}), false)`, ...direct.params) : null,
    filters('d'),
    selected !== undefined ? sql('d.project_mfid = ?', selected) : null,
  );
  return [scanSource(only, columns)];
}

/** A part of a tally source reduced to its `n` column. */
function amounts(part: Sql): Sql {
  return { sql: `select i.n from (${part.sql}) i`, params: part.params };
}

/** `column = value`, or with `anyCase` `lower(column) = lower(value)`. */
function textEquals(column: string, value: string, anyCase: boolean | undefined): Sql {
  return anyCase ? sql(`lower(${column}) = lower(?)`, value) : sql(`${column} = ?`, value);
}

function unionAll(parts: Sql[]): TallySource {
  return { sql: parts.map((p) => `(${p.sql})`).join(' union all '), params: parts.flatMap((p) => p.params) };
}
