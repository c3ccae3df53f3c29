import type { RequestContext } from '../../core/context';
import { sql, type Sql } from '../../core/db/sql';
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
