import { Migration } from '@mikro-orm/migrations';

export class Migration20261123195744_dataset_tally extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "dataset_tally" ("id" serial primary key, "public" boolean not null, "owner_id" varchar(32) not null, "project_mfid" varchar(26) null, "instrument_mfid" varchar(26) null, "measurement" varchar(200) null, "data_type" varchar(200) null, "n" bigint not null);`);
    this.addSql(`create unique index dataset_tally_key_idx on dataset_tally (public, owner_id, project_mfid, instrument_mfid, measurement, data_type) nulls not distinct;`);

    // kept by the database: every insert, delete and change of a tallied column of a dataset
    this.addSql(`create or replace function dataset_tally_add(p boolean, o varchar, pr varchar, i varchar, m varchar, dt varchar, delta bigint)
      returns void language sql as $$
      insert into dataset_tally (public, owner_id, project_mfid, instrument_mfid, measurement, data_type, n)
      values (p, o, pr, i, m, dt, delta)
      on conflict (public, owner_id, project_mfid, instrument_mfid, measurement, data_type)
      do update set n = dataset_tally.n + excluded.n
    $$;`);
    this.addSql(`create or replace function dataset_tally_from_dataset() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and (old.public, old.owner_id, old.project_mfid, old.instrument_mfid, old.measurement, old.data_type)
            is not distinct from (new.public, new.owner_id, new.project_mfid, new.instrument_mfid, new.measurement, new.data_type) then
          return null;
        end if;
        if tg_op in ('UPDATE', 'DELETE') then
          perform dataset_tally_add(old.public, old.owner_id, old.project_mfid, old.instrument_mfid, old.measurement, old.data_type, -1);
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          perform dataset_tally_add(new.public, new.owner_id, new.project_mfid, new.instrument_mfid, new.measurement, new.data_type, 1);
        end if;
        return null;
      end
    $$;`);
    this.addSql(`create trigger dataset_tally_from_dataset after insert or delete or update of public, owner_id, project_mfid, instrument_mfid, measurement, data_type
      on dataset for each row execute function dataset_tally_from_dataset();`);
    this.addSql(`insert into dataset_tally (public, owner_id, project_mfid, instrument_mfid, measurement, data_type, n)
      select public, owner_id, project_mfid, instrument_mfid, measurement, data_type, count(*)
      from dataset group by 1, 2, 3, 4, 5, 6;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists dataset_tally_from_dataset on dataset;`);
    this.addSql(`drop function if exists dataset_tally_from_dataset();`);
    this.addSql(`drop function if exists dataset_tally_add(boolean, varchar, varchar, varchar, varchar, varchar, bigint);`);
    this.addSql(`drop table if exists "dataset_tally" cascade;`);
  }

}
