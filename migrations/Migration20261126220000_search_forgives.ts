import { Migration } from '@mikro-orm/migrations';

const FIELDS = `to_tsvector('english', concat_ws(' ', d.dataset_name, d.measurement, d.data_type, d.data_format, d.session_name))`;

/**
 * Search that forgives (issue 27, item 9; docs/web-app.md): `lower(column)` indexes for the text
 * filters that ignore case, and the dataset's full-text document (`dataset_text`) with the names of
 * its first 1,000 files, kept by statement triggers (one set-based refresh per statement, in MFID
 * order, and only of the datasets whose text changed) instead of one refresh per row.
 */
export class Migration20261126220000_search_forgives extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index dataset_measurement_lower_idx on dataset (lower(measurement), unique_id);`);
    this.addSql(`create index dataset_data_type_lower_idx on dataset (lower(data_type), unique_id);`);
    this.addSql(`create index dataset_data_format_lower_idx on dataset (lower(data_format), unique_id);`);
    this.addSql(`create index dataset_session_name_lower_idx on dataset (lower(session_name), unique_id);`);
    this.addSql(
      `create index dataset_legacy_instrument_name_lower_idx on dataset (lower(legacy_instrument_name), unique_id);`,
    );
    this.addSql(`create index instrument_name_lower_idx on instrument (lower(instrument_name));`);

    this.addSql(`drop trigger if exists dataset_text_from_dataset on dataset;`);
    this.addSql(`drop trigger if exists dataset_text_from_metadata on scientific_metadata;`);
    this.addSql(`drop function if exists dataset_text_from_dataset();`);
    this.addSql(`drop function if exists dataset_text_from_metadata();`);
    // the text of many datasets at once: fields, metadata, and the names of the first 1,000 files
    this.addSql(`create or replace function dataset_text_refresh_many(ids varchar[]) returns void language sql as $$
      insert into dataset_text (dataset_mfid, search)
      select d.unique_id,
        ${FIELDS} || coalesce(m.search, ''::tsvector) || coalesce(f.search, ''::tsvector)
      from dataset d
      left join scientific_metadata m on m.resource_id = d.unique_id
      left join lateral (
        select to_tsvector('english', string_agg(x.filename, ' ')) as search
        from (select af.filename from associated_file af where af.dataset_mfid = d.unique_id
              order by af.unique_id limit 1000) x
      ) f on true
      where d.unique_id = any(ids)
      order by d.unique_id
      on conflict (dataset_mfid) do update set search = excluded.search
    $$;`);
    this.addSql(`create or replace function dataset_text_refresh(id varchar) returns void language sql as $$
      select dataset_text_refresh_many(array[id])
    $$;`);
    this.addSql(`create or replace function dataset_text_from_datasets() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          perform dataset_text_refresh_many(array(select unique_id from added));
        else
          perform dataset_text_refresh_many(array(
            select n.unique_id from added n join removed o on o.unique_id = n.unique_id
            where (n.dataset_name, n.measurement, n.data_type, n.data_format, n.session_name)
              is distinct from (o.dataset_name, o.measurement, o.data_type, o.data_format, o.session_name)));
        end if;
        return null;
      end
    $$;`);
    this.addSql(`create trigger dataset_text_insert after insert on dataset
      referencing new table as added for each statement execute function dataset_text_from_datasets();`);
    this.addSql(`create trigger dataset_text_update after update on dataset
      referencing old table as removed new table as added for each statement execute function dataset_text_from_datasets();`);
    this.addSql(`create or replace function dataset_text_from_metadata() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          perform dataset_text_refresh_many(array(select resource_id from added where resource_type = 'dataset'));
        elsif tg_op = 'DELETE' then
          perform dataset_text_refresh_many(array(select resource_id from removed where resource_type = 'dataset'));
        else
          perform dataset_text_refresh_many(array(
            select n.resource_id from added n join removed o on o.resource_id = n.resource_id
            where n.resource_type = 'dataset' and n.data is distinct from o.data));
        end if;
        return null;
      end
    $$;`);
    this.addSql(`create trigger dataset_text_metadata_insert after insert on scientific_metadata
      referencing new table as added for each statement execute function dataset_text_from_metadata();`);
    this.addSql(`create trigger dataset_text_metadata_update after update on scientific_metadata
      referencing old table as removed new table as added for each statement execute function dataset_text_from_metadata();`);
    this.addSql(`create trigger dataset_text_metadata_delete after delete on scientific_metadata
      referencing old table as removed for each statement execute function dataset_text_from_metadata();`);
    this.addSql(`create or replace function dataset_text_from_files() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          perform dataset_text_refresh_many(array(select distinct dataset_mfid from added));
        elsif tg_op = 'DELETE' then
          perform dataset_text_refresh_many(array(select distinct dataset_mfid from removed));
        else
          perform dataset_text_refresh_many(array(
            select n.dataset_mfid from added n join removed o on o.unique_id = n.unique_id
            where (n.filename, n.dataset_mfid) is distinct from (o.filename, o.dataset_mfid)
            union select o.dataset_mfid from added n join removed o on o.unique_id = n.unique_id
            where n.dataset_mfid is distinct from o.dataset_mfid));
        end if;
        return null;
      end
    $$;`);
    this.addSql(`create trigger dataset_text_files_insert after insert on associated_file
      referencing new table as added for each statement execute function dataset_text_from_files();`);
    this.addSql(`create trigger dataset_text_files_update after update on associated_file
      referencing old table as removed new table as added for each statement execute function dataset_text_from_files();`);
    this.addSql(`create trigger dataset_text_files_delete after delete on associated_file
      referencing old table as removed for each statement execute function dataset_text_from_files();`);
    // the datasets that have files gain their names
    this.addSql(`select dataset_text_refresh_many(array(select distinct dataset_mfid from associated_file));`);
  }

  override async down(): Promise<void> {
    for (const t of ['insert', 'update', 'delete']) {
      this.addSql(`drop trigger if exists dataset_text_files_${t} on associated_file;`);
      this.addSql(`drop trigger if exists dataset_text_metadata_${t} on scientific_metadata;`);
    }
    this.addSql(`drop trigger if exists dataset_text_insert on dataset;`);
    this.addSql(`drop trigger if exists dataset_text_update on dataset;`);
    this.addSql(`drop function if exists dataset_text_from_files();`);
    this.addSql(`drop function if exists dataset_text_from_datasets();`);
    this.addSql(`drop function if exists dataset_text_from_metadata();`);
    this.addSql(`create or replace function dataset_text_refresh(id varchar) returns void language sql as $$
      insert into dataset_text (dataset_mfid, search)
      select d.unique_id, ${FIELDS} || coalesce(m.search, ''::tsvector)
      from dataset d left join scientific_metadata m on m.resource_id = d.unique_id
      where d.unique_id = id
      on conflict (dataset_mfid) do update set search = excluded.search
    $$;`);
    this.addSql(`drop function if exists dataset_text_refresh_many(varchar[]);`);
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
    this.addSql(`drop index if exists instrument_name_lower_idx;`);
    for (const c of ['measurement', 'data_type', 'data_format', 'session_name', 'legacy_instrument_name']) {
      this.addSql(`drop index if exists dataset_${c}_lower_idx;`);
    }
  }
}
