import { Migration } from '@mikro-orm/migrations';

export class Migration20261123201118_metadata_value extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "metadata_value" ("id" bigserial primary key, "resource_id" varchar(26) not null, "path" varchar(500) not null, "dim" varchar(40) not null, "num" double precision not null);`);
    this.addSql(`create index "metadata_value_resource_id_path_index" on "metadata_value" ("resource_id", "path");`);
    this.addSql(`create index "metadata_value_path_dim_num_index" on "metadata_value" ("path", "dim", "num");`);

    this.addSql(`alter table "metadata_value" add constraint "metadata_value_resource_id_foreign" foreign key ("resource_id") references "scientific_metadata" ("resource_id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "metadata_value" cascade;`);
  }

}
