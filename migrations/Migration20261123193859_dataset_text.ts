import { Migration } from '@mikro-orm/migrations';

export class Migration20261123193859_dataset_text extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "dataset_text" ("dataset_mfid" varchar(26) not null, "search" tsvector not null, constraint "dataset_text_pkey" primary key ("dataset_mfid"));`);
    this.addSql(`create index dataset_text_search_idx on dataset_text using gin (search);`);

    this.addSql(`alter table "dataset_text" add constraint "dataset_text_dataset_mfid_foreign" foreign key ("dataset_mfid") references "dataset" ("unique_id") on update cascade on delete cascade;`);

    // dataset_text is kept by the database: every writer of dataset or scientific_metadata refreshes it
    this.addSql(`create or replace function dataset_text_refresh(id varchar) returns void language sql as $$
      insert into dataset_text (dataset_mfid, search)
      select d.unique_id,
        to_tsvector('english', concat_ws(' ', d.dataset_name, d.measurement, d.data_type, d.data_format, d.session_name))
          || coalesce(m.search, ''::tsvector)
      from dataset d left join scientific_metadata m on m.resource_id = d.unique_id
      where d.unique_id = id
      on conflict (dataset_mfid) do update set search = excluded.search
    $$;`);
    this.addSql(`create or replace function dataset_text_from_dataset() returns trigger language plpgsql as $$
      begin perform dataset_text_refresh(new.unique_id); return null; end
    $$;`);
    this.addSql(`create trigger dataset_text_from_dataset after insert or update of dataset_name, measurement, data_type, data_format, session_name
      on dataset for each row execute function dataset_text_from_dataset();`);
    this.addSql(`create or replace function dataset_text_from_metadata() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          if old.resource_type = 'dataset' then perform dataset_text_refresh(old.resource_id); end if;
        elsif new.resource_type = 'dataset' then
          perform dataset_text_refresh(new.resource_id);
        end if;
        return null;
      end
    $$;`);
    this.addSql(`create trigger dataset_text_from_metadata after insert or update of data or delete
      on scientific_metadata for each row execute function dataset_text_from_metadata();`);
    this.addSql(`insert into dataset_text (dataset_mfid, search)
      select d.unique_id,
        to_tsvector('english', concat_ws(' ', d.dataset_name, d.measurement, d.data_type, d.data_format, d.session_name))
          || coalesce(m.search, ''::tsvector)
      from dataset d left join scientific_metadata m on m.resource_id = d.unique_id;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists dataset_text_from_metadata on scientific_metadata;`);
    this.addSql(`drop trigger if exists dataset_text_from_dataset on dataset;`);
    this.addSql(`drop function if exists dataset_text_from_metadata();`);
    this.addSql(`drop function if exists dataset_text_from_dataset();`);
    this.addSql(`drop function if exists dataset_text_refresh(varchar);`);
    this.addSql(`drop table if exists "dataset_text" cascade;`);
  }

}
