import { Migration } from '@mikro-orm/migrations';

export class Migration20261123231111_ingestion_progress extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "ingestion_request" add column "bytes_read" bigint null, add column "bytes_total" bigint null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ingestion_request" drop column "bytes_read", drop column "bytes_total";`);
  }

}
