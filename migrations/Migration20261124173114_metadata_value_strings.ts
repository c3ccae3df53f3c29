import { Migration } from '@mikro-orm/migrations';

export class Migration20261124173114_metadata_value_strings extends Migration {

  override async up(): Promise<void> {
    this.addSql(`drop index "metadata_value_path_dim_num_index";`);

    this.addSql(`alter table "metadata_value" add column "str" varchar(200) null;`);
    this.addSql(`create index "metadata_value_path_dim_num_str_resource_id_index" on "metadata_value" ("path", "dim", "num", "str", "resource_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "metadata_value_path_dim_num_str_resource_id_index";`);
    this.addSql(`alter table "metadata_value" drop column "str";`);

    this.addSql(`create index "metadata_value_path_dim_num_index" on "metadata_value" ("path", "dim", "num");`);
  }

}
