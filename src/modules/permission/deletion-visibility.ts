import { sql, type Sql } from '../../core/db/sql';

/**
 * Keeps the resources (identified by the column `idColumn`, e.g. `d.unique_id`) that no pending
 * or approved deletion request hides. Collections and searches apply it; reads by id, links and
 * graphs do not.
 */
export function notHiddenByDeletion(idColumn: string): Sql {
  return sql(
    `not exists (select 1 from deletion_request dr where dr.resource_id = ${idColumn} and dr.status in ('pending', 'approved'))`,
  );
}
