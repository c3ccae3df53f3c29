import { Migration } from '@mikro-orm/migrations';

export class Migration20261126230000_publication_sets extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "publication_set" ("publication_id" varchar(26) not null, "project_mfid" varchar(26) not null, constraint "publication_set_pkey" primary key ("publication_id", "project_mfid"));`);
    this.addSql(`create index "publication_set_project_mfid_publication_id_index" on "publication_set" ("project_mfid", "publication_id");`);
    // the publications published before this migration: their datasets' projects now
    this.addSql(`insert into "publication_set" ("publication_id", "project_mfid") select distinct p."unique_id", d."project_mfid" from "publication" p cross join lateral jsonb_array_elements_text(p."dataset_ids") as i(id) join "dataset" d on d."unique_id" = i.id where p."state" <> 'draft' and d."project_mfid" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "publication_set" cascade;`);
  }

}
