import { Migration } from '@mikro-orm/migrations';

const KEY = 'public, owner_id, project_mfid, instrument_mfid, measurement, data_type';

/**
 * `dataset_tally` kept by one grouped upsert per statement, in key order, instead of one upsert
 * per row in row order: two statements writing several datasets each (a bulk insert, an update
 * of many) locked the same tally rows in different orders and deadlocked.
 */
export class Migration20261124211500_dataset_tally_statement_trigger extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop trigger if exists dataset_tally_from_dataset on dataset;`);
    this.addSql(`drop function if exists dataset_tally_from_dataset();`);
    this.addSql(`create or replace function dataset_tally_from_datasets() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into dataset_tally (${KEY}, n)
          select ${KEY}, count(*) from added group by ${KEY} order by ${KEY}
          on conflict (${KEY}) do update set n = dataset_tally.n + excluded.n;
        elsif tg_op = 'DELETE' then
          insert into dataset_tally (${KEY}, n)
          select ${KEY}, -count(*) from removed group by ${KEY} order by ${KEY}
          on conflict (${KEY}) do update set n = dataset_tally.n + excluded.n;
        else
          insert into dataset_tally (${KEY}, n)
          select ${KEY}, sum(c.n) from (select ${KEY}, 1 as n from added
                                        union all select ${KEY}, -1 from removed) c
          group by ${KEY} having sum(c.n) <> 0 order by ${KEY}
          on conflict (${KEY}) do update set n = dataset_tally.n + excluded.n;
        end if;
        return null;
      end
    $$;`);
    this.addSql(`create trigger dataset_tally_insert after insert on dataset
      referencing new table as added for each statement execute function dataset_tally_from_datasets();`);
    this.addSql(`create trigger dataset_tally_delete after delete on dataset
      referencing old table as removed for each statement execute function dataset_tally_from_datasets();`);
    this.addSql(`create trigger dataset_tally_update after update on dataset
      referencing old table as removed new table as added for each statement execute function dataset_tally_from_datasets();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists dataset_tally_insert on dataset;`);
    this.addSql(`drop trigger if exists dataset_tally_delete on dataset;`);
    this.addSql(`drop trigger if exists dataset_tally_update on dataset;`);
    this.addSql(`drop function if exists dataset_tally_from_datasets();`);
    this.addSql(`create or replace function dataset_tally_from_dataset() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and (old.${KEY.split(', ').join(', old.')}) is not distinct from (new.${KEY.split(', ').join(', new.')}) then
          return null;
        end if;
        if tg_op in ('UPDATE', 'DELETE') then
          perform dataset_tally_add(old.${KEY.split(', ').join(', old.')}, -1);
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          perform dataset_tally_add(new.${KEY.split(', ').join(', new.')}, 1);
        end if;
        return null;
      end
    $$;`);
    this.addSql(`create trigger dataset_tally_from_dataset after insert or delete or update of ${KEY}
      on dataset for each row execute function dataset_tally_from_dataset();`);
  }
}
