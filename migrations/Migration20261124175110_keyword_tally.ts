import { Migration } from '@mikro-orm/migrations';

export class Migration20261124175110_keyword_tally extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "keyword_tally" ("id" serial primary key, "keyword_id" int not null, "public" boolean not null, "owner_id" varchar(32) null, "project_mfid" varchar(26) null, "n" bigint not null);`);
    this.addSql(`create index "keyword_tally_project_idx" on "keyword_tally" ("keyword_id", "project_mfid");`);
    this.addSql(`create unique index keyword_tally_key_idx on keyword_tally (keyword_id, public, owner_id, project_mfid) nulls not distinct;`);

    // kept by the database. The key of a dataset: public ones all together, private ones by owner
    // and project
    this.addSql(`create or replace function keyword_tally_add(k int, p boolean, o varchar, pr varchar, delta bigint)
      returns void language sql as $$
      insert into keyword_tally (keyword_id, public, owner_id, project_mfid, n)
      values (k, p, case when p then null else o end, case when p then null else pr end, delta)
      on conflict (keyword_id, public, owner_id, project_mfid) do update set n = keyword_tally.n + excluded.n
    $$;`);
    // links added or removed, one statement at a time (a bulk insert is one grouped upsert). The
    // datasets are locked FOR SHARE first: a concurrent change of their visibility columns waits,
    // or is waited for, so the link is counted at the key it ends up with. A link removed with its
    // dataset is not found here (the dataset row is gone): the dataset's trigger counted it out.
    this.addSql(`create or replace function keyword_tally_from_links() returns trigger language plpgsql as $$
      begin
        if tg_op in ('DELETE', 'UPDATE') then
          perform 1 from dataset d where d.unique_id in (select dataset_mfid from removed) for share;
          insert into keyword_tally (keyword_id, public, owner_id, project_mfid, n)
          select r.keyword_id, d.public, case when d.public then null else d.owner_id end,
            case when d.public then null else d.project_mfid end, -count(*)
          from removed r join dataset d on d.unique_id = r.dataset_mfid group by 1, 2, 3, 4
          on conflict (keyword_id, public, owner_id, project_mfid) do update set n = keyword_tally.n + excluded.n;
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          perform 1 from dataset d where d.unique_id in (select dataset_mfid from added) for share;
          insert into keyword_tally (keyword_id, public, owner_id, project_mfid, n)
          select a.keyword_id, d.public, case when d.public then null else d.owner_id end,
            case when d.public then null else d.project_mfid end, count(*)
          from added a join dataset d on d.unique_id = a.dataset_mfid group by 1, 2, 3, 4
          on conflict (keyword_id, public, owner_id, project_mfid) do update set n = keyword_tally.n + excluded.n;
        end if;
        return null;
      end
    $$;`);
    this.addSql(`create trigger keyword_tally_links_insert after insert on dataset_keyword
      referencing new table as added for each statement execute function keyword_tally_from_links();`);
    this.addSql(`create trigger keyword_tally_links_delete after delete on dataset_keyword
      referencing old table as removed for each statement execute function keyword_tally_from_links();`);
    this.addSql(`create trigger keyword_tally_links_update after update on dataset_keyword
      referencing old table as removed new table as added for each statement execute function keyword_tally_from_links();`);
    // a dataset's visibility columns changed: its keywords move; a dataset deleted: its keywords
    // are counted out before the cascade removes the links (BEFORE: they are still there)
    this.addSql(`create or replace function keyword_tally_from_dataset() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' then
          if (old.public, old.owner_id, old.project_mfid) is not distinct from (new.public, new.owner_id, new.project_mfid) then
            return null;
          end if;
          perform keyword_tally_add(dk.keyword_id, old.public, old.owner_id, old.project_mfid, -1)
            from dataset_keyword dk where dk.dataset_mfid = old.unique_id;
          perform keyword_tally_add(dk.keyword_id, new.public, new.owner_id, new.project_mfid, 1)
            from dataset_keyword dk where dk.dataset_mfid = new.unique_id;
          return null;
        end if;
        perform keyword_tally_add(dk.keyword_id, old.public, old.owner_id, old.project_mfid, -1)
          from dataset_keyword dk where dk.dataset_mfid = old.unique_id;
        return old;
      end
    $$;`);
    this.addSql(`create trigger keyword_tally_from_dataset_update after update of public, owner_id, project_mfid
      on dataset for each row execute function keyword_tally_from_dataset();`);
    this.addSql(`create trigger keyword_tally_from_dataset_delete before delete
      on dataset for each row execute function keyword_tally_from_dataset();`);
    this.addSql(`insert into keyword_tally (keyword_id, public, owner_id, project_mfid, n)
      select dk.keyword_id, d.public, case when d.public then null else d.owner_id end,
        case when d.public then null else d.project_mfid end, count(*)
      from dataset_keyword dk join dataset d on d.unique_id = dk.dataset_mfid group by 1, 2, 3, 4;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists keyword_tally_from_dataset_delete on dataset;`);
    this.addSql(`drop trigger if exists keyword_tally_from_dataset_update on dataset;`);
    this.addSql(`drop function if exists keyword_tally_from_dataset();`);
    this.addSql(`drop trigger if exists keyword_tally_links_insert on dataset_keyword;`);
    this.addSql(`drop trigger if exists keyword_tally_links_delete on dataset_keyword;`);
    this.addSql(`drop trigger if exists keyword_tally_links_update on dataset_keyword;`);
    this.addSql(`drop function if exists keyword_tally_from_links();`);
    this.addSql(`drop function if exists keyword_tally_add(int, boolean, varchar, varchar, bigint);`);
    this.addSql(`drop table if exists "keyword_tally" cascade;`);
  }

}
