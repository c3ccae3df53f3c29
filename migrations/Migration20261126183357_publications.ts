import { Migration } from '@mikro-orm/migrations';

export class Migration20261126183357_publications extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "publication" ("unique_id" varchar(26) not null, "state" text check ("state" in ('draft', 'published', 'withdrawn')) not null, "creator_id" varchar(32) not null, "metadata" jsonb not null, "dataset_ids" jsonb not null, "manifest" jsonb null, "previous_version_id" varchar(26) null, "doi" varchar(300) null, "published_at" timestamptz null, "withdrawn_at" timestamptz null, "withdrawal_reason" text null, "creation_time" timestamptz not null default now(), "modification_time" timestamptz not null default now(), constraint "publication_pkey" primary key ("unique_id"));`);
    this.addSql(`alter table "publication" add constraint "publication_previous_version_id_unique" unique ("previous_version_id");`);
    this.addSql(`create index "publication_state_unique_id_index" on "publication" ("state", "unique_id");`);
    this.addSql(`create index "publication_creator_id_index" on "publication" ("creator_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "publication" cascade;`);
  }

}
