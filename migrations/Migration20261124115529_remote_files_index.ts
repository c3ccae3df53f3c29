import { Migration } from '@mikro-orm/migrations';

export class Migration20261124115529_remote_files_index extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index associated_file_remote_idx on associated_file (dataset_mfid, unique_id) where storage_key is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "associated_file_remote_idx";`);
  }

}
