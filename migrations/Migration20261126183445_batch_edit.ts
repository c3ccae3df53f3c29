import { Migration } from '@mikro-orm/migrations';

export class Migration20261126183445_batch_edit extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "batch_edit" ("id" varchar(26) not null, "actor_id" varchar(32) not null, "operation" jsonb not null, "target_source" varchar(10) not null, "status" varchar(10) not null, "token" varchar(64) not null, "target_count" int not null, "changed_count" int not null default 0, "created_at" timestamptz not null default now(), "expires_at" timestamptz not null, "applied_at" timestamptz null, "undone_at" timestamptz null, constraint "batch_edit_pkey" primary key ("id"));`);
    this.addSql(`create index "batch_edit_actor_id_created_at_index" on "batch_edit" ("actor_id", "created_at");`);

    this.addSql(`create table "batch_edit_item" ("batch_id" varchar(26) not null, "dataset_mfid" varchar(26) not null, "before" jsonb null, "after" jsonb null, "changes" boolean not null default false, constraint "batch_edit_item_pkey" primary key ("batch_id", "dataset_mfid"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "batch_edit" cascade;`);

    this.addSql(`drop table if exists "batch_edit_item" cascade;`);
  }

}
