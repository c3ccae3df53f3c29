import { Migration } from '@mikro-orm/migrations';

/**
 * `datasetTotalRows` (src/modules/dataset/dataset-total.ts) as it stands with this migration: the
 * dimensions of Migration20261124201511_dataset_total plus `session` and `data_format`, the
 * fields of the dataset facet pages that had no tally (docs/scale.md, "Facet fields and sorted
 * pages"). A frozen copy, like the first one (the test of the table's invariant compares them).
 */
function totalRows(source: string): string {
  return `select dims.dim, dims.value, sc.scope, sc.owner_id, sc.project_mfid, sc.shard, sum(c.n) as n
    from ${source} c
    cross join lateral (values ('all', null::varchar), ('owner', c.owner_id::varchar),
      ('project', c.project_mfid::varchar), ('instrument', c.instrument_mfid::varchar),
      ('measurement', c.measurement::varchar), ('data_type', c.data_type::varchar),
      ('session', c.session_name::varchar), ('data_format', c.data_format::varchar)) dims(dim, value)
    cross join lateral (values ('A', null::varchar, null::varchar, hashtext(c.unique_id) & 7),
      (case when c.public then 'P' else 'V' end, case when c.public then null else c.owner_id end,
       case when c.public then null else c.project_mfid end,
       case when c.public then hashtext(c.unique_id) & 7 else 0 end)) sc(scope, owner_id, project_mfid, shard)
    where dims.dim = 'all' or dims.value is not null
    group by 1, 2, 3, 4, 5, 6`;
}

/** `sampleTotalRows` (src/modules/sample/sample-total.ts) as it stands with this migration (a frozen copy). */
function sampleRows(source: string): string {
  return `select dims.dim, dims.value, sc.scope, sc.owner_id, sc.project_mfid, sc.shard, sum(c.n) as n
    from ${source} c
    cross join lateral (values ('all', null::varchar), ('owner', c.owner_id::varchar),
      ('project', c.project_mfid::varchar), ('sample_type', c.sample_type::varchar)) dims(dim, value)
    cross join lateral (values ('A', null::varchar, null::varchar, hashtext(c.unique_id) & 7),
      (case when c.public then 'P' else 'V' end, case when c.public then null else c.owner_id end,
       case when c.public then null else c.project_mfid end,
       case when c.public then hashtext(c.unique_id) & 7 else 0 end)) sc(scope, owner_id, project_mfid, shard)
    where dims.dim = 'all' or dims.value is not null
    group by 1, 2, 3, 4, 5, 6`;
}

const SAMPLE_COLUMNS = 'unique_id, public, owner_id, project_mfid, sample_type';

const COLUMNS =
  'unique_id, public, owner_id, project_mfid, instrument_mfid, measurement, data_type, session_name, data_format';

export class Migration20261127013000_facet_field_totals extends Migration {
  override async up(): Promise<void> {
    // the same function, with the two new dimensions (and their columns in an update's union)
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
            `(select ${COLUMNS}, 1 as n from added
              union all
              select ${COLUMNS}, -1 from removed)`,
          )} having sum(c.n) <> 0) t order by 1, 2, 3, 4, 5, 6
          on conflict (dim, value, scope, owner_id, project_mfid, shard) do update set n = dataset_total.n + excluded.n;
        end if;
        return null;
      end
    $$;`);
    // the rows of the two new dimensions for the datasets stored before (the trigger keeps them from here)
    this.addSql(
      `insert into dataset_total (dim, value, scope, owner_id, project_mfid, shard, n)
       select * from (${totalRows('(select *, 1 as n from dataset)')}) t where t.dim in ('session', 'data_format');`,
    );
    this.addSql(
      `create index "dataset_total_scope_idx" on "dataset_total" ("dim", "scope", "owner_id", "project_mfid");`,
    );
    this.addSql(
      `create index "dataset_total_scope_project_idx" on "dataset_total" ("dim", "scope", "project_mfid");`,
    );
    // the samples' totals: the same table, kept the same way (one grouped upsert per statement, in key order)
    this.addSql(
      `create table "sample_total" ("id" serial primary key, "dim" varchar(16) not null, "value" varchar(200) null, "scope" varchar(1) not null, "owner_id" varchar(32) null, "project_mfid" varchar(26) null, "shard" smallint not null, "n" bigint not null);`,
    );
    this.addSql(
      `create unique index sample_total_key_idx on sample_total (dim, value, scope, owner_id, project_mfid, shard) nulls not distinct;`,
    );
    this.addSql(
      `create index "sample_total_scope_idx" on "sample_total" ("dim", "scope", "owner_id", "project_mfid");`,
    );
    this.addSql(
      `create index "sample_total_scope_project_idx" on "sample_total" ("dim", "scope", "project_mfid");`,
    );
    this.addSql(`create or replace function sample_total_from_samples() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into sample_total (dim, value, scope, owner_id, project_mfid, shard, n)
          select * from (${sampleRows('(select *, 1 as n from added)')}) t order by 1, 2, 3, 4, 5, 6
          on conflict (dim, value, scope, owner_id, project_mfid, shard) do update set n = sample_total.n + excluded.n;
        elsif tg_op = 'DELETE' then
          insert into sample_total (dim, value, scope, owner_id, project_mfid, shard, n)
          select * from (${sampleRows('(select *, -1 as n from removed)')}) t order by 1, 2, 3, 4, 5, 6
          on conflict (dim, value, scope, owner_id, project_mfid, shard) do update set n = sample_total.n + excluded.n;
        else
          insert into sample_total (dim, value, scope, owner_id, project_mfid, shard, n)
          select * from (${sampleRows(
            `(select ${SAMPLE_COLUMNS}, 1 as n from added
              union all
              select ${SAMPLE_COLUMNS}, -1 from removed)`,
          )} having sum(c.n) <> 0) t order by 1, 2, 3, 4, 5, 6
          on conflict (dim, value, scope, owner_id, project_mfid, shard) do update set n = sample_total.n + excluded.n;
        end if;
        return null;
      end
    $$;`);
    this.addSql(`create trigger sample_total_insert after insert on sample
      referencing new table as added for each statement execute function sample_total_from_samples();`);
    this.addSql(`create trigger sample_total_delete after delete on sample
      referencing old table as removed for each statement execute function sample_total_from_samples();`);
    this.addSql(`create trigger sample_total_update after update on sample
      referencing old table as removed new table as added for each statement execute function sample_total_from_samples();`);
    this.addSql(
      `insert into sample_total (dim, value, scope, owner_id, project_mfid, shard, n) ${sampleRows('(select *, 1 as n from sample)')};`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists sample_total_insert on sample;`);
    this.addSql(`drop trigger if exists sample_total_delete on sample;`);
    this.addSql(`drop trigger if exists sample_total_update on sample;`);
    this.addSql(`drop function if exists sample_total_from_samples();`);
    this.addSql(`drop table if exists "sample_total" cascade;`);
    this.addSql(`drop index if exists "dataset_total_scope_project_idx";`);
    this.addSql(`drop index if exists "dataset_total_scope_idx";`);
    this.addSql(`delete from dataset_total where dim in ('session', 'data_format');`);
    this.addSql(`create or replace function dataset_total_from_datasets() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into dataset_total (dim, value, scope, owner_id, project_mfid, shard, n)
          select * from (select * from (${totalRows('(select *, 1 as n from added)')}) a where a.dim not in ('session', 'data_format')) t order by 1, 2, 3, 4, 5, 6
          on conflict (dim, value, scope, owner_id, project_mfid, shard) do update set n = dataset_total.n + excluded.n;
        elsif tg_op = 'DELETE' then
          insert into dataset_total (dim, value, scope, owner_id, project_mfid, shard, n)
          select * from (select * from (${totalRows('(select *, -1 as n from removed)')}) a where a.dim not in ('session', 'data_format')) t order by 1, 2, 3, 4, 5, 6
          on conflict (dim, value, scope, owner_id, project_mfid, shard) do update set n = dataset_total.n + excluded.n;
        else
          insert into dataset_total (dim, value, scope, owner_id, project_mfid, shard, n)
          select * from (${totalRows(
            `(select ${COLUMNS}, 1 as n from added
              union all
              select ${COLUMNS}, -1 from removed)`,
          )} having sum(c.n) <> 0) t where t.dim not in ('session', 'data_format') order by 1, 2, 3, 4, 5, 6
          on conflict (dim, value, scope, owner_id, project_mfid, shard) do update set n = dataset_total.n + excluded.n;
        end if;
        return null;
      end
    $$;`);
  }
}
