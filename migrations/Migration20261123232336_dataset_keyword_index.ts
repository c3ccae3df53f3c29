import { Migration } from '@mikro-orm/migrations';

export class Migration20261123232336_dataset_keyword_index extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "dataset_keyword_keyword_dataset_idx" on "dataset_keyword" ("keyword_id", "dataset_mfid");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "dataset_keyword_keyword_dataset_idx";`);
  }

}
