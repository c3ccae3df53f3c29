import { Migration } from '@mikro-orm/migrations';

export class Migration20261127043745_file_structure extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "file_structure" ("file_mfid" varchar(26) not null, "format" varchar(16) not null, "nodes" jsonb null, "truncated" boolean not null default false, "error" text null, "ingestor" varchar(100) null, "recorded_at" timestamptz not null default now(), constraint "file_structure_pkey" primary key ("file_mfid"));`);

    this.addSql(`alter table "file_structure" add constraint "file_structure_file_mfid_foreign" foreign key ("file_mfid") references "associated_file" ("unique_id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "file_structure" cascade;`);
  }

}
