import { Migration } from '@mikro-orm/migrations';

export class Migration20261126220006_datacite extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "publication" add column "doi_state" text check ("doi_state" in ('draft', 'registered', 'findable')) null, add column "registration_error" text null;`);
    this.addSql(`alter table "publication" add constraint "publication_doi_unique" unique ("doi");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "publication" drop constraint "publication_doi_unique";`);
    this.addSql(`alter table "publication" drop column "doi_state", drop column "registration_error";`);
  }

}
