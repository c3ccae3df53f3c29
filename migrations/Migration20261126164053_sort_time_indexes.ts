import { Migration } from '@mikro-orm/migrations';

export class Migration20261126164053_sort_time_indexes extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "sample_modification_time_unique_id_index" on "sample" ("modification_time", "unique_id");`);
    this.addSql(`create index "sample_creation_time_unique_id_index" on "sample" ("creation_time", "unique_id");`);

    this.addSql(`create index "dataset_modification_time_unique_id_index" on "dataset" ("modification_time", "unique_id");`);
    this.addSql(`create index "dataset_creation_time_unique_id_index" on "dataset" ("creation_time", "unique_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "dataset_modification_time_unique_id_index";`);
    this.addSql(`drop index "dataset_creation_time_unique_id_index";`);

    this.addSql(`drop index "sample_modification_time_unique_id_index";`);
    this.addSql(`drop index "sample_creation_time_unique_id_index";`);
  }

}
