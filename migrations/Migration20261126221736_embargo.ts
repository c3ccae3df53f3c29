import { Migration } from '@mikro-orm/migrations';

export class Migration20261126221736_embargo extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "publication" add column "embargo_until" timestamptz null;`);
    this.addSql(`create index publication_embargo_idx on publication (embargo_until) where embargo_until is not null and state = 'published';`);

    this.addSql(`alter table "dataset" add column "embargo_until" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "dataset" drop column "embargo_until";`);

    this.addSql(`drop index "publication_embargo_idx";`);
    this.addSql(`alter table "publication" drop column "embargo_until";`);
  }

}
