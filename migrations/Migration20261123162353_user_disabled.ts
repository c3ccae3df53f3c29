import { Migration } from '@mikro-orm/migrations';

export class Migration20261123162353_user_disabled extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "app_user" add column "disabled_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "app_user" drop column "disabled_at";`);
  }

}
