import { Migration } from '@mikro-orm/migrations';

/**
 * The privilege mode a browser session acts in (issue 26, item 6): every session, those already
 * open included, starts in the member's view (`normal`); an administrator elevates it explicitly.
 */
export class Migration20261126151348_session_privilege_mode extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "user_session" add column "privilege_mode" text check ("privilege_mode" in ('normal', 'elevated')) not null default 'normal';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "user_session" drop column "privilege_mode";`);
  }
}
