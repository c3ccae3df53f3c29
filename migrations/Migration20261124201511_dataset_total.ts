import { Migration } from '@mikro-orm/migrations';


/**
 * The rows of `dataset_total` (without `id`, in its column order) that a set of datasets
 * contributes: `source` selects their columns and `n` (+1 or -1). Each dataset counts under every
 * dimension it has a value for (`all` always), once in its shard of the A rows and once in its P
 * row (public: its shard, no owner or project) or V row (private: its owner and project, shard 0).
 * A frozen copy of src/modules/dataset/dataset-total.ts as it stood when this migration was
 * written (the test of the table's invariant compares the two).
 */
function totalRows(source: string): string {
  return `select dims.dim, dims.value, sc.scope, sc.owner_id, sc.project_mfid, sc.shard, sum(c.n) as n
    from ${source} c
    cross join lateral (values ('all', null::varchar), ('owner', c.owner_id::varchar),
      ('project', c.project_mfid::varchar), ('instrument', c.instrument_mfid::varchar),
      ('measurement', c.measurement::varchar), ('data_type', c.data_type::varchar)) dims(dim, value)
    cross join lateral (values ('A', null::varchar, null::varchar, hashtext(c.unique_id) & 7),
      (case when c.public then 'P' else 'V' end, case when c.public then null else c.owner_id end,
       case when c.public then null else c.project_mfid end,
       case when c.public then hashtext(c.unique_id) & 7 else 0 end)) sc(scope, owner_id, project_mfid, shard)
    where dims.dim = 'all' or dims.value is not null
    group by 1, 2, 3, 4, 5, 6`;
}

export class Migration20261124201511_dataset_total extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "dataset_total" ("id" serial primary key, "dim" varchar(16) not null, "value" varchar(200) null, "scope" varchar(1) not null, "owner_id" varchar(32) null, "project_mfid" varchar(26) null, "shard" smallint not null, "n" bigint not null);`,
    );
    this.addSql(
      `create index "dataset_total_project_idx" on "dataset_total" ("dim", "value", "scope", "project_mfid");`,
    );
    this.addSql(
      `create unique index dataset_total_key_idx on dataset_total (dim, value, scope, owner_id, project_mfid, shard) nulls not distinct;`,
    );
    // kept by the database: one grouped upsert per statement on dataset, in key order (concurrent
    // statements lock the rows they share in the same order); an update that changes no counted
    // column nets to nothing and writes nothing
    this.addSql(`create or replace function dataset_total_from_datasets() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into dataset_total (dim, value, scope, owner_id, project_mfid, shard, n)
          select * from (${totalRows('(select *, 1 as n from added)')}) t order by 1, 2, 3, 4, 5, 6
          on conflict (dim, value, scope, owner_id, project_mfid, shard) do update set n = dataset_total.n + excluded.n;
        elsif tg_op = 'DELETE' then
          insert into dataset_total (dim, value, scope, owner_id, project_mfid, shard, n)
          select * from (${totalRows('(select *, -1 as n from removed)')}) t order by 1, 2, 3, 4, 5, 6
          on conflict (dim, value, scope, owner_id, project_mfid, shard) do update set n = dataset_total.n + excluded.n;
        else
          insert into dataset_total (dim, value, scope, owner_id, project_mfid, shard, n)
          select * from (${totalRows(
            `(select unique_id, public, owner_id, project_mfid, instrument_mfid, measurement, data_type, 1 as n from added
              union all
              select unique_id, public, owner_id, project_mfid, instrument_mfid, measurement, data_type, -1 from removed)`,
          )} having sum(c.n) <> 0) t order by 1, 2, 3, 4, 5, 6
          on conflict (dim, value, scope, owner_id, project_mfid, shard) do update set n = dataset_total.n + excluded.n;
        end if;
        return null;
      end
    $$;`);
    this.addSql(`create trigger dataset_total_insert after insert on dataset
      referencing new table as added for each statement execute function dataset_total_from_datasets();`);
    this.addSql(`create trigger dataset_total_delete after delete on dataset
      referencing old table as removed for each statement execute function dataset_total_from_datasets();`);
    this.addSql(`create trigger dataset_total_update after update on dataset
      referencing old table as removed new table as added for each statement execute function dataset_total_from_datasets();`);
    this.addSql(
      `insert into dataset_total (dim, value, scope, owner_id, project_mfid, shard, n) ${totalRows('(select *, 1 as n from dataset)')};`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists dataset_total_insert on dataset;`);
    this.addSql(`drop trigger if exists dataset_total_delete on dataset;`);
    this.addSql(`drop trigger if exists dataset_total_update on dataset;`);
    this.addSql(`drop function if exists dataset_total_from_datasets();`);
    this.addSql(`drop table if exists "dataset_total" cascade;`);
  }
}
