import { Migration } from '@mikro-orm/migrations';

export class Migration20261121215924_initial extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "access_grant" ("id" serial primary key, "resource_id" varchar(26) not null, "resource_type" text check ("resource_type" in ('dataset', 'sample', 'project', 'instrument')) not null, "principal_type" text check ("principal_type" in ('user', 'project', 'group')) not null, "principal_id" varchar(100) not null, "permission" text check ("permission" in ('viewer', 'contributor', 'editor', 'admin')) not null, "granted_by" varchar(32) null, "creation_time" timestamptz not null default now());`);
    this.addSql(`create index "access_grant_principal_type_principal_id_index" on "access_grant" ("principal_type", "principal_id");`);
    this.addSql(`alter table "access_grant" add constraint "access_grant_resource_id_principal_type_principal_id_unique" unique ("resource_id", "principal_type", "principal_id");`);

    this.addSql(`create table "keyword" ("id" serial primary key, "text" varchar(200) not null, "creation_time" timestamptz not null default now());`);
    this.addSql(`create unique index keyword_text_lower_idx on keyword (lower(text));`);

    this.addSql(`create table "app_user" ("unique_id" varchar(32) not null, "id" serial, "username" varchar(64) null, "email" varchar(320) null, "first_name" varchar(200) null, "last_name" varchar(200) null, "is_service_account" boolean not null default false, "is_platform_admin" boolean not null default false, "creation_time" timestamptz not null default now(), "modification_time" timestamptz not null default now(), constraint "app_user_pkey" primary key ("unique_id"));`);
    this.addSql(`alter table "app_user" add constraint "app_user_id_unique" unique ("id");`);
    this.addSql(`create unique index app_user_username_lower_idx on app_user (lower(username));`);
    this.addSql(`create unique index app_user_email_lower_idx on app_user (lower(email));`);

    this.addSql(`create table "project" ("unique_id" varchar(26) not null, "project_id" varchar(100) not null, "title" varchar(500) null, "organization" varchar(500) null, "description" text null, "status" varchar(50) not null default 'active', "owner_id" varchar(32) not null, "creation_time" timestamptz not null default now(), "modification_time" timestamptz not null default now(), constraint "project_pkey" primary key ("unique_id"));`);
    this.addSql(`alter table "project" add constraint "project_project_id_unique" unique ("project_id");`);
    this.addSql(`create index "project_owner_id_index" on "project" ("owner_id");`);

    this.addSql(`create table "project_member" ("id" serial primary key, "project_mfid" varchar(26) not null, "user_id" varchar(32) not null, "role" text check ("role" in ('viewer', 'contributor', 'editor', 'admin')) not null default 'contributor', "creation_time" timestamptz not null default now());`);
    this.addSql(`create index "project_member_user_id_index" on "project_member" ("user_id");`);
    this.addSql(`alter table "project_member" add constraint "project_member_project_mfid_user_id_unique" unique ("project_mfid", "user_id");`);

    this.addSql(`create table "instrument" ("unique_id" varchar(26) not null, "instrument_id" varchar(100) not null, "instrument_name" varchar(200) not null, "owner_id" varchar(32) not null, "status" varchar(50) not null default 'active', "location" varchar(300) null, "manufacturer" varchar(300) null, "model" varchar(300) null, "instrument_type" varchar(200) null, "description" text null, "other_id" varchar(200) null, "other_id_source" varchar(200) null, "public" boolean not null default false, "creation_time" timestamptz not null default now(), "modification_time" timestamptz not null default now(), constraint "instrument_pkey" primary key ("unique_id"));`);
    this.addSql(`alter table "instrument" add constraint "instrument_instrument_id_unique" unique ("instrument_id");`);
    this.addSql(`alter table "instrument" add constraint "instrument_instrument_name_unique" unique ("instrument_name");`);
    this.addSql(`create index "instrument_owner_id_index" on "instrument" ("owner_id");`);

    this.addSql(`create table "dataset" ("unique_id" varchar(26) not null, "dataset_name" varchar(500) null, "measurement" varchar(200) null, "data_type" varchar(200) null, "data_format" varchar(100) null, "session_name" varchar(200) null, "timestamp" varchar(64) null, "public" boolean not null default false, "owner_id" varchar(32) not null, "project_mfid" varchar(26) null, "instrument_mfid" varchar(26) null, "legacy_project_id" varchar(100) null, "legacy_instrument_id" varchar(100) null, "legacy_instrument_name" varchar(200) null, "size" bigint not null default 0, "creation_time" timestamptz not null default now(), "modification_time" timestamptz not null default now(), constraint "dataset_pkey" primary key ("unique_id"));`);
    this.addSql(`create index "dataset_measurement_index" on "dataset" ("measurement");`);
    this.addSql(`create index "dataset_session_name_index" on "dataset" ("session_name");`);
    this.addSql(`create index "dataset_instrument_mfid_unique_id_index" on "dataset" ("instrument_mfid", "unique_id");`);
    this.addSql(`create index "dataset_owner_id_unique_id_index" on "dataset" ("owner_id", "unique_id");`);
    this.addSql(`create index "dataset_project_mfid_unique_id_index" on "dataset" ("project_mfid", "unique_id");`);

    this.addSql(`create table "dataset_keyword" ("dataset_mfid" varchar(26) not null, "keyword_id" int not null, "creation_time" timestamptz not null default now(), constraint "dataset_keyword_pkey" primary key ("dataset_mfid", "keyword_id"));`);
    this.addSql(`create index "dataset_keyword_keyword_id_index" on "dataset_keyword" ("keyword_id");`);

    this.addSql(`create table "api_key" ("unique_id" varchar(26) not null, "hash" varchar(64) not null, "prefix" varchar(16) not null, "user_id" varchar(32) not null, "label" varchar(200) null, "created_at" timestamptz not null default now(), "expires_at" timestamptz null, "revoked_at" timestamptz null, "last_used_at" timestamptz null, constraint "api_key_pkey" primary key ("unique_id"));`);
    this.addSql(`alter table "api_key" add constraint "api_key_hash_unique" unique ("hash");`);
    this.addSql(`create index "api_key_user_id_index" on "api_key" ("user_id");`);

    this.addSql(`alter table "project" add constraint "project_owner_id_foreign" foreign key ("owner_id") references "app_user" ("unique_id") on update cascade;`);

    this.addSql(`alter table "project_member" add constraint "project_member_project_mfid_foreign" foreign key ("project_mfid") references "project" ("unique_id") on update cascade on delete cascade;`);
    this.addSql(`alter table "project_member" add constraint "project_member_user_id_foreign" foreign key ("user_id") references "app_user" ("unique_id") on update cascade on delete cascade;`);

    this.addSql(`alter table "instrument" add constraint "instrument_owner_id_foreign" foreign key ("owner_id") references "app_user" ("unique_id") on update cascade;`);

    this.addSql(`alter table "dataset" add constraint "dataset_owner_id_foreign" foreign key ("owner_id") references "app_user" ("unique_id") on update cascade;`);
    this.addSql(`alter table "dataset" add constraint "dataset_project_mfid_foreign" foreign key ("project_mfid") references "project" ("unique_id") on update cascade on delete set null;`);
    this.addSql(`alter table "dataset" add constraint "dataset_instrument_mfid_foreign" foreign key ("instrument_mfid") references "instrument" ("unique_id") on update cascade on delete set null;`);

    this.addSql(`alter table "dataset_keyword" add constraint "dataset_keyword_dataset_mfid_foreign" foreign key ("dataset_mfid") references "dataset" ("unique_id") on update cascade on delete cascade;`);
    this.addSql(`alter table "dataset_keyword" add constraint "dataset_keyword_keyword_id_foreign" foreign key ("keyword_id") references "keyword" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "api_key" add constraint "api_key_user_id_foreign" foreign key ("user_id") references "app_user" ("unique_id") on update cascade on delete cascade;`);
  }

}
