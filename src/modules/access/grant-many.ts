import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import type { PrincipalType } from '../permission/permission';

/**
 * The set-based grant statements of batch edits (docs/web-app.md, "Edit many at once"), for
 * {@link GrantService}'s `…ManyIn` methods: one principal's grant on many datasets, read or set
 * inside the caller's transaction, without permission checks (the caller holds the rows' locks
 * and has checked `manage` and the grant cap).
 */

/**
 * Each of many resources' grant to one principal (absent: none) and how many grants it holds
 * (absent: none), in one statement.
 */
export async function principalGrantsManyIn(
  em: EntityManager,
  principal: { type: PrincipalType; id: string },
  resourceIds: readonly string[],
): Promise<Map<string, { permission: string | null; n: number }>> {
  const rows = await rawQuery<{ id: string; permission: string | null; n: number }>(
    em,
    `select resource_id as id, count(*)::int as n,
       max(permission) filter (where principal_type = ? and principal_id = ?) as permission
     from access_grant where resource_id in (select jsonb_array_elements_text(?::jsonb)) group by resource_id`,
    [principal.type, principal.id, JSON.stringify(resourceIds)],
  );
  return new Map(rows.map((r) => [r.id, { permission: r.permission, n: r.n }]));
}

/** Sets one principal's grant on many datasets, each to its own level (null: no grant), in two statements. */
export async function setGrantsManyIn(
  tx: EntityManager,
  principal: { type: PrincipalType; id: string },
  levels: readonly { id: string; permission: string | null }[],
  grantedBy: string,
): Promise<void> {
  const gone = levels.filter((l) => l.permission === null).map((l) => l.id);
  const set = levels.filter((l) => l.permission !== null);
  if (gone.length) {
    await rawQuery(
      tx,
      `delete from access_grant where principal_type = ? and principal_id = ?
       and resource_id in (select jsonb_array_elements_text(?::jsonb))`,
      [principal.type, principal.id, JSON.stringify(gone)],
    );
  }
  if (set.length) {
    await rawQuery(
      tx,
      `insert into access_grant (resource_id, resource_type, principal_type, principal_id, permission, granted_by)
       select v.id, 'dataset', ?, ?, v.permission, ? from jsonb_to_recordset(?::jsonb) as v(id text, permission text)
       on conflict (resource_id, principal_type, principal_id)
       do update set permission = excluded.permission, granted_by = excluded.granted_by`,
      [principal.type, principal.id, grantedBy, JSON.stringify(set)],
    );
  }
}
