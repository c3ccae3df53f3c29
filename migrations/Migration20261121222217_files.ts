import { Migration } from '@mikro-orm/migrations';

export class Migration20261121222217_files extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "service_setting" ("key" varchar(100) not null, "value" text not null, "creation_time" timestamptz not null default now(), constraint "service_setting_pkey" primary key ("key"));`);

    this.addSql(`create table "upload_session" ("unique_id" varchar(26) not null, "token_hash" varchar(64) not null, "dataset_mfid" varchar(26) not null, "user_id" varchar(32) not null, "filename" varchar(255) not null, "content_type" varchar(255) not null, "ingestor" varchar(100) null, "size" bigint not null, "expected_sha256" varchar(64) null, "file_mfid" varchar(26) not null, "storage_key" varchar(300) not null, "received" bigint not null default 0, "multipart_id" varchar(1024) null, "parts" jsonb not null default '[]', "pending" bytea null, "sha256_state" bytea null, "crc32c_state" bytea null, "sha256" varchar(64) null, "crc32c" varchar(12) null, "status" text check ("status" in ('open', 'stored', 'completed')) not null default 'open', "lease_until" timestamptz null, "expires_at" timestamptz not null, "creation_time" timestamptz not null default now(), constraint "upload_session_pkey" primary key ("unique_id"));`);
    this.addSql(`alter table "upload_session" add constraint "upload_session_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "upload_session_dataset_mfid_index" on "upload_session" ("dataset_mfid");`);
    this.addSql(`create index "upload_session_expires_at_index" on "upload_session" ("expires_at");`);

    this.addSql(`create table "thumbnail" ("id" serial primary key, "dataset_mfid" varchar(26) not null, "thumbnail_name" varchar(255) not null, "mime_type" varchar(50) not null default 'image/jpeg', "data" bytea not null, "creation_time" timestamptz not null default now(), "modification_time" timestamptz not null default now());`);
    this.addSql(`create index "thumbnail_dataset_mfid_id_index" on "thumbnail" ("dataset_mfid", "id");`);

    this.addSql(`create table "associated_file" ("unique_id" varchar(26) not null, "dataset_mfid" varchar(26) not null, "filename" varchar(255) not null, "size" bigint null, "sha256" varchar(64) null, "content_type" varchar(255) null, "storage_backend" varchar(100) not null, "storage_key" varchar(300) null, "storage_path" varchar(2000) null, "access_note" text null, "creator_id" varchar(32) null, "creation_time" timestamptz not null default now(), "modification_time" timestamptz not null default now(), constraint "associated_file_pkey" primary key ("unique_id"));`);
    this.addSql(`create index "associated_file_sha256_index" on "associated_file" ("sha256");`);
    this.addSql(`create unique index associated_file_dataset_sha256_stored_uq on associated_file (dataset_mfid, sha256) where storage_key is not null;`);
    this.addSql(`create index "associated_file_dataset_mfid_unique_id_index" on "associated_file" ("dataset_mfid", "unique_id");`);

    this.addSql(`alter table "upload_session" add constraint "upload_session_dataset_mfid_foreign" foreign key ("dataset_mfid") references "dataset" ("unique_id") on update cascade on delete cascade;`);

    this.addSql(`alter table "thumbnail" add constraint "thumbnail_dataset_mfid_foreign" foreign key ("dataset_mfid") references "dataset" ("unique_id") on update cascade on delete cascade;`);

    this.addSql(`alter table "associated_file" add constraint "associated_file_dataset_mfid_foreign" foreign key ("dataset_mfid") references "dataset" ("unique_id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "service_setting" cascade;`);

    this.addSql(`drop table if exists "upload_session" cascade;`);

    this.addSql(`drop table if exists "thumbnail" cascade;`);

    this.addSql(`drop table if exists "associated_file" cascade;`);
  }

}
