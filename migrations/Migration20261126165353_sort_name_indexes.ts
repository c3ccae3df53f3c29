import { Migration } from '@mikro-orm/migrations';

export class Migration20261126165353_sort_name_indexes extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index sample_name_order_idx on sample (lower(sample_name), unique_id);`);

    this.addSql(`create index dataset_name_order_idx on dataset (lower(dataset_name), unique_id);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "dataset_name_order_idx";`);

    this.addSql(`drop index "sample_name_order_idx";`);
  }

}
