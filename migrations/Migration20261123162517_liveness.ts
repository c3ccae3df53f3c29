import { Migration } from '@mikro-orm/migrations';

export class Migration20261123162517_liveness extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "job" add column "holder" int null;`);

    this.addSql(`alter table "upload_session" add column "lease_holder" int null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "job" drop column "holder";`);

    this.addSql(`alter table "upload_session" drop column "lease_holder";`);
  }

}
