import { Migration } from '@mikro-orm/migrations';

/**
 * Platform roles replace the platform-administrator flag: administrators keep `admin`, everyone
 * else `contributor` (what every non-administrator could create before: datasets and samples),
 * so no existing user's rights change. `none` is new (reads and grants only).
 */
export class Migration20261126131302_platform_role extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "app_user" add column "platform_role" text check ("platform_role" in ('none', 'contributor', 'admin')) not null default 'contributor';`,
    );
    this.addSql(`update "app_user" set "platform_role" = 'admin' where "is_platform_admin";`);
    this.addSql(`alter table "app_user" drop column "is_platform_admin";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "app_user" add column "is_platform_admin" bool not null default false;`);
    this.addSql(`update "app_user" set "is_platform_admin" = true where "platform_role" = 'admin';`);
    this.addSql(`alter table "app_user" drop column "platform_role";`);
  }
}
