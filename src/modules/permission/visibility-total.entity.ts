import { BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A row of a visibility totals table (`dataset_total`, `sample_total`): how many records carry
 * one value of one dimension (`dim`; `all` with a null value counts every record), per
 * visibility bucket (`scope`: `A` every record, `P` the public ones, `V` the private ones of one
 * owner and project), the `A` and `P` rows split in eight `shard`s by the record's MFID so that
 * concurrent writers seldom wait on the same row. No table of its own: the tables extend it, are
 * kept by the database (statement triggers, from {@link visibilityTotalRows}) and are read
 * through the visibility rule's terms (`visible-totals.ts`).
 */
@Entity({ abstract: true })
export abstract class VisibilityTotal {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Property({ length: 16 })
  dim!: string;

  @Property({ length: 200, nullable: true })
  value?: string | null;

  @Property({ length: 1 })
  scope!: string;

  @Property({ length: 32, nullable: true })
  ownerId?: string | null;

  @Property({ length: 26, nullable: true })
  projectMfid?: string | null;

  @Property({ type: 'smallint' })
  shard!: number;

  @Property({ type: new BigIntType('number') })
  n!: number;
}

/**
 * The rows of a visibility totals table (without `id`, in its column order) that a set of records
 * contributes: `source` selects their `unique_id`, `public`, `owner_id`, `project_mfid`, the
 * dimensions' columns and `n` (+1 or -1); `dims` names each dimension and its column. Each record
 * counts under every dimension it has a value for (`all` always), once in its shard of the A rows
 * and once in its P row (public: its shard, no owner or project) or V row (private: its owner and
 * project, shard 0). The triggers that keep the tables, their backfills and their tests use this.
 */
export function visibilityTotalRows(source: string, dims: readonly (readonly [string, string])[]): string {
  const values = [
    `('all', null::varchar)`,
    ...dims.map(([dim, column]) => `('${dim}', c.${column}::varchar)`),
  ];
  return `select dims.dim, dims.value, sc.scope, sc.owner_id, sc.project_mfid, sc.shard, sum(c.n) as n
    from ${source} c
    cross join lateral (values ${values.join(', ')}) dims(dim, value)
    cross join lateral (values ('A', null::varchar, null::varchar, hashtext(c.unique_id) & 7),
      (case when c.public then 'P' else 'V' end, case when c.public then null else c.owner_id end,
       case when c.public then null else c.project_mfid end,
       case when c.public then hashtext(c.unique_id) & 7 else 0 end)) sc(scope, owner_id, project_mfid, shard)
    where dims.dim = 'all' or dims.value is not null
    group by 1, 2, 3, 4, 5, 6`;
}
