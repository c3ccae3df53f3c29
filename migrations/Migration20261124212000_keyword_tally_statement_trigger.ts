import { Migration } from '@mikro-orm/migrations';

/**
 * A dataset's keywords move between `keyword_tally` keys by one grouped upsert per statement (in
 * key order) instead of per dataset: two statements changing the visibility of several datasets
 * each locked the same tally rows in different orders and could deadlock. A deleted dataset's
 * keywords are still counted out row by row before the cascade removes its links (a statement
 * trigger would find them gone), now in keyword order.
 */
export class Migration20261124212000_keyword_tally_statement_trigger extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop trigger if exists keyword_tally_from_dataset_update on dataset;`);
    this.addSql(`create or replace function keyword_tally_from_datasets() returns trigger language plpgsql as $$
      begin
        insert into keyword_tally (keyword_id, public, owner_id, project_mfid, n)
        select dk.keyword_id, c.public, case when c.public then null else c.owner_id end,
          case when c.public then null else c.project_mfid end, sum(c.n)
        from (select unique_id, public, owner_id, project_mfid, 1 as n from added
              union all select unique_id, public, owner_id, project_mfid, -1 from removed) c
        join dataset_keyword dk on dk.dataset_mfid = c.unique_id
        group by 1, 2, 3, 4 having sum(c.n) <> 0 order by 1, 2, 3, 4
        on conflict (keyword_id, public, owner_id, project_mfid) do update set n = keyword_tally.n + excluded.n;
        return null;
      end
    $$;`);
    this.addSql(`create trigger keyword_tally_from_datasets_update after update on dataset
      referencing old table as removed new table as added for each statement execute function keyword_tally_from_datasets();`);
    this.addSql(`create or replace function keyword_tally_from_dataset() returns trigger language plpgsql as $$
      begin
        perform keyword_tally_add(k.keyword_id, old.public, old.owner_id, old.project_mfid, -1)
          from (select dk.keyword_id from dataset_keyword dk where dk.dataset_mfid = old.unique_id
                order by dk.keyword_id) k;
        return old;
      end
    $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists keyword_tally_from_datasets_update on dataset;`);
    this.addSql(`drop function if exists keyword_tally_from_datasets();`);
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
  }
}
