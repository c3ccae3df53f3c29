import { Migration } from '@mikro-orm/migrations';

export class Migration20261126183303_metadata_version extends Migration {

  override async up(): Promise<void> {
    // versions start lazily: a document older than this gets its version 1 at its next write (MetadataStore)
    this.addSql(`create table "metadata_version" ("id" serial primary key, "resource_id" varchar(26) not null, "version" int not null, "data" jsonb not null, "actor_id" varchar(32) null, "time" timestamptz not null default now());`);
    this.addSql(`alter table "metadata_version" add constraint "metadata_version_resource_id_version_unique" unique ("resource_id", "version");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "metadata_version" cascade;`);
  }

}
