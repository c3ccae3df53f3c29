import { Migration } from '@mikro-orm/migrations';

export class Migration20261124155830_metadata_string extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "metadata_string" ("id" bigserial primary key, "resource_id" varchar(26) not null, "path" varchar(500) not null, "str" varchar(200) not null);`);
    this.addSql(`create index "metadata_string_resource_id_path_str_index" on "metadata_string" ("resource_id", "path", "str");`);
    this.addSql(`create index "metadata_string_path_str_resource_id_index" on "metadata_string" ("path", "str", "resource_id");`);

    this.addSql(`alter table "metadata_string" add constraint "metadata_string_resource_id_foreign" foreign key ("resource_id") references "scientific_metadata" ("resource_id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "metadata_string" cascade;`);
  }

}
