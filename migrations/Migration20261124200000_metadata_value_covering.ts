import { Migration } from '@mikro-orm/migrations';

/** The matches of a numeric or unit-aware condition, counted and listed from the index alone. */
export class Migration20261124200000_metadata_value_covering extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index "metadata_value_path_dim_num_index";`);
    this.addSql(
      `create index "metadata_value_path_dim_num_resource_id_index" on "metadata_value" ("path", "dim", "num", "resource_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "metadata_value_path_dim_num_resource_id_index";`);
    this.addSql(`create index "metadata_value_path_dim_num_index" on "metadata_value" ("path", "dim", "num");`);
  }
}
