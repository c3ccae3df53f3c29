import type { RequestContext } from '../../core/context';
import { and, sql, type Sql } from '../../core/db/sql';
import type { AccessService } from './access.service';

/**
 * The visibility rule's terms (access.service.ts) as rows of a totals table (`dataset_total`,
 * `sample_total`: alias `t`, columns `scope`, `owner_id`, `project_mfid`, `n`), without grants,
 * bindings and deletion requests: everything is the A rows; public records the P rows; the
 * caller's own and their projects' private records the V rows. `rows(cond, sign)` selects the
 * rows of the wanted dimension (and value) under `cond`, negated when `sign` is `-`.
 */
export async function visibleTotals(
  ctx: RequestContext,
  access: AccessService,
  isPublic: boolean | undefined,
  rows: (cond: Sql, sign: '' | '-') => Sql,
): Promise<Sql[]> {
  const parts: Sql[] = [];
  const terms = await access.readableTerms(ctx);
  if (terms.everything) {
    if (isPublic !== true) parts.push(rows(sql(`t.scope = 'A'`), ''));
    if (isPublic === true) parts.push(rows(sql(`t.scope = 'P'`), ''));
    if (isPublic === false) parts.push(rows(sql(`t.scope = 'P'`), '-'));
  } else {
    if (isPublic !== false) parts.push(rows(sql(`t.scope = 'P'`), ''));
    if (isPublic !== true) {
      parts.push(rows(sql(`t.scope = 'V' and t.owner_id = ?`, terms.ownerId), ''));
      if (terms.projects.length > 0) {
        parts.push(
          rows(
            sql(`t.scope = 'V' and t.project_mfid in (?) and t.owner_id <> ?`, terms.projects, terms.ownerId),
            '',
          ),
        );
      }
    }
  }
  return parts;
}

/** A kind of record with a visibility totals table: its resource type, table (alias `s` in `value`) and totals table. */
export interface TotalsTable {
  type: 'sample';
  table: string;
  totals: string;
}

/**
 * The parts `(value, n)` whose sum is what the caller reads of dimension `dim` of a totals table
 * whose records are reached by ownership, projects and grants alone (samples): the table's rows
 * ({@link visibleTotals}), the records only a grant opens (`value`, an expression over the
 * record's alias `s`), and the readable ones a deletion request hides (negated). `isPublic`
 * narrows to public or private records.
 */
export async function visibleTotalParts(
  ctx: RequestContext,
  access: AccessService,
  kind: TotalsTable,
  isPublic: boolean | undefined,
  dim: string,
  value: string,
): Promise<Sql[]> {
  const parts = await visibleTotals(ctx, access, isPublic, (cond, sign) =>
    sql(
      `select t.value, ${sign}t.n as n from ${kind.totals} t where t.dim = ? and ${cond.sql}`,
      dim,
      ...cond.params,
    ),
  );
  const visibility = isPublic !== undefined ? sql('s.public = ?', isPublic) : null;
  const rows = (where: Sql, n: string): Sql => ({
    sql: `select ${value} as value, ${n} as n from ${kind.table} s where ${where.sql}`,
    params: where.params,
  });
  if (!(await access.readableTerms(ctx)).everything) {
    const grants = access.grantPrincipals(await ctx.scope(), 'g');
    const direct = await access.readableCondition(ctx, kind.type, 's', { grants: false });
    const only = and(
      sql(
        `s.unique_id in (select g.resource_id from access_grant g where g.resource_type = ? and (${grants.sql}))`,
        kind.type,
        ...grants.params,
      ),
      direct ? sql(`not coalesce((${direct.sql}), false)`, ...direct.params) : sql('false'),
      visibility,
    );
    parts.push(rows(only, '1'));
  }
  const hidden = and(
    sql(
      `s.unique_id in (select dr.resource_id from deletion_request dr where dr.status in ('pending', 'approved'))`,
    ),
    await access.readableCondition(ctx, kind.type, 's'),
    visibility,
  );
  parts.push(rows(hidden, '-1'));
  return parts;
}
