/**
 * SQL: when the bytes of `dataset <alias>` open: the later of its own embargo and the embargoes
 * of the published publications holding it (null: none; `greatest` skips nulls). The rule is
 * the access module's (access/embargo.ts, docs/access-control.md "Embargo"); the formula lives
 * here, below every module, so the dataset read model can carry it in its one statement.
 */
export function embargoEndSql(alias: string): string {
  return `greatest(${alias}.embargo_until, (select max(p.embargo_until) from publication p
    where p.embargo_until is not null and p.state = 'published'
      and p.dataset_ids @> jsonb_build_array(${alias}.unique_id)))`;
}

/** SQL: whether the bytes of `dataset <alias>` are under embargo at the statement's `now()` (never null). */
export function embargoedSql(alias: string): string {
  return `coalesce(${embargoEndSql(alias)} > now(), false)`;
}
